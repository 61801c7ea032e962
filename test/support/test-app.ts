/**
 * For the transport's own tests: the fastify app over a real (idle) chain with a chosen handler map or
 * limiter, listening on loopback (the JSON-RPC POSTs are answered by the server's request listener, which
 * `app.inject` does not reach: post to it with rpc.ts's post()).
 */
import type { FastifyInstance } from 'fastify'
import { createChain } from '../../src/chain/create-chain.js'
import { checkConfig, type Config } from '../../src/config.js'
import { sequencerStatus } from '../../src/feed/peer-status.js'
import { FeedPublisher } from '../../src/feed/publisher.js'
import { handlerContexts, type HandlerContext } from '../../src/handlers/context.js'
import { connectFilters } from '../../src/filters/service.js'
import { handlers as allHandlers } from '../../src/handlers/index.js'
import { createApp } from '../../src/server/app.js'
import type { ServedHandlers } from '../../src/server/jsonrpc.js'
import type { RequestLimiter } from '../../src/server/throttle.js'

export interface TestAppOptions {
  config?: Partial<Config>
  handlers?: ServedHandlers<HandlerContext>
  limiter?: RequestLimiter
}

export async function createTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const config = checkConfig({ quiet: true, ...options.config })
  // the sequencer is never started: the static methods need no blocks, and nothing ticks in the background
  const chain = await createChain({ ...config, accounts: 1 })
  const app = await createApp({
    config,
    handlers: options.handlers ?? allHandlers,
    limiter: options.limiter,
    context: handlerContexts(
      chain,
      config,
      connectFilters(chain.events),
      sequencerStatus({ events: chain.events, mining: false, publisher: new FeedPublisher(), localPeerId: () => '' }),
    ),
  })
  app.addHook('onClose', () => chain.stop())
  // a request may still come from any loopback address (127.0.0.2 as another client: rpc.ts's remoteAddress)
  await app.listen({ host: '127.0.0.1', port: 0 })
  return app
}
