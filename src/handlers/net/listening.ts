import type { Handler } from '../context.js'

/** net_listening: a service that answers is listening. */
export const net_listening: Handler<'net_listening'> = () => true
