import { forkConfigs, type ForkConfig } from '../../chain/fork-config.js'
import { address, data, quantity } from '../../format/hex.js'
import type { ForkConfig as WireForkConfig } from '../../../generated/types.js'
import type { Handler } from '../context.js'

function wire(config: ForkConfig): WireForkConfig {
  const addresses = (map: Map<string, Uint8Array>) => Object.fromEntries([...map].map(([k, v]) => [k, address(v)]))
  return {
    activationTime: Number(config.activationTime),
    ...(config.blobSchedule && {
      blobSchedule: {
        target: Number(config.blobSchedule.target),
        max: Number(config.blobSchedule.max),
        baseFeeUpdateFraction: Number(config.blobSchedule.baseFeeUpdateFraction),
      },
    }),
    chainId: quantity(config.chainId),
    forkId: data(config.forkId),
    precompiles: addresses(config.precompiles),
    systemContracts: addresses(config.systemContracts),
  }
}

/** eth_config (EIP-7910): the fork rules in force at the latest block, and the next and last scheduled forks. */
export const eth_config: Handler<'eth_config'> = async (_params, ctx) => {
  const [head, genesis] = await Promise.all([ctx.resolver.latest(), ctx.resolver.block(0n)])
  const { current, next, last } = forkConfigs(ctx.common, genesis!.hash, head.number, head.header.timestamp)
  return { current: wire(current), next: next ? wire(next) : null, last: last ? wire(last) : null }
}
