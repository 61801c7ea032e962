/**
 * For the transport's own tests: the fastify app over a real (idle) chain, without a socket, so
 * `app.inject` exercises the exact request path with a chosen handler map or limiter.
 */
import type { FastifyInstance } from 'fastify'
import { createChain } from '../chain/chain.js'
import { checkConfig, defaultConfig, type Config } from '../config.js'
import { handlerContexts, type HandlerContext } from '../handlers/context.js'
import { connectFilters } from '../filters/service.js'
import { handlers as allHandlers } from '../handlers/index.js'
import { createApp } from './app.js'
import type { ServedHandlers } from './jsonrpc.js'
import type { RequestLimiter } from './throttle.js'

export interface TestAppOptions {
  config?: Partial<Config>
  handlers?: ServedHandlers<HandlerContext>
  limiter?: RequestLimiter
}

export async function createTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const config = checkConfig(defaultConfig({ quiet: true, ...options.config }))
  // the sequencer is never started: the static methods need no blocks, and nothing ticks in the background
  const chain = await createChain({ ...config, accounts: 1 })
  const app = await createApp({
    config,
    handlers: options.handlers ?? allHandlers,
    limiter: options.limiter,
    context: handlerContexts(chain, config, connectFilters(chain.events)),
  })
  app.addHook('onClose', () => chain.stop())
  return app
}
