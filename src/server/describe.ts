/**
 * The answer to `GET` on an endpoint: a short JSON description, so someone who opens the URL in a browser
 * learns what it is and how to talk to it instead of seeing an error.
 */
import { devMethodsServed, type Config } from '../config.js'
import { methodTable, type Endpoint } from '../../generated/methods.js'
import { SERVICE_NAME, SERVICE_VERSION } from '../version.js'
import { ENDPOINT_PATHS, FEED_PATH } from './endpoints.js'

const SUMMARIES: Readonly<Record<Endpoint, string>> = {
  general: 'Ethereum JSON-RPC for an X Layer-style OP-Stack L2; `pending` is the latest sealed block.',
  flashblocks:
    'Preconfirmation endpoint: `pending` reads the newest flashblock (a 200 ms increment of the block being built).',
}

const methodCounts = new Map<string, number>()

function methodCount(endpoint: Endpoint, devMethods: boolean): number {
  const key = `${endpoint}:${devMethods}`
  let count = methodCounts.get(key)
  if (count === undefined) {
    count = Object.values(methodTable).filter(
      (spec) => spec.endpoints.includes(endpoint) && (devMethods || !spec.devNode),
    ).length
    methodCounts.set(key, count)
  }
  return count
}

export interface EndpointDescription {
  name: string
  version: string
  endpoint: Endpoint
  description: string
  network: Config['network']
  chainId: number
  methods: number
  usage: string
  links: Record<string, string>
}

export function describeEndpoint(endpoint: Endpoint, config: Config): EndpointDescription {
  return {
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    endpoint,
    description: SUMMARIES[endpoint],
    network: config.network,
    chainId: config.chainId,
    methods: methodCount(endpoint, devMethodsServed(config)),
    usage: `POST JSON-RPC 2.0 requests (Content-Type: application/json) to ${ENDPOINT_PATHS[endpoint]}; rpc.discover returns this endpoint's OpenRPC document`,
    links: { general: ENDPOINT_PATHS.general, flashblocks: ENDPOINT_PATHS.flashblocks, feed: FEED_PATH },
  }
}
