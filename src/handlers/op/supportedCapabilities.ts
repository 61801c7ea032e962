import type { Handler } from '../context.js'

/** op_supportedCapabilities (/flashblocks only): the flashblocks protocol version served, as Base's node. */
export const op_supportedCapabilities: Handler<'op_supportedCapabilities'> = () => ['flashblocksv1']
