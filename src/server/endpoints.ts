/** Where each endpoint is served, so routes, URLs and descriptions agree. */
import type { Endpoint } from '../../generated/methods.js'

export const ENDPOINT_PATHS: Readonly<Record<Endpoint, string>> = { general: '/', flashblocks: '/flashblocks' }

export const ENDPOINTS: readonly Endpoint[] = ['general', 'flashblocks']

/** The raw flashblock feed (WebSocket only). */
export const FEED_PATH = '/ws/flashblocks'
