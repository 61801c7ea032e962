/** evm_snapshot and evm_revert: the whole chain, flashblocks and pool included (src/chain/dev/rewind.ts). */
import { quantity } from '../../format/hex.js'
import type { Handler } from '../context.js'
import { devNode, devQuantity } from '../dev-node.js'

export const evm_snapshot: Handler<'evm_snapshot'> = async (_params, ctx) => quantity(await devNode(ctx).snapshot())

export const evm_revert: Handler<'evm_revert'> = ([id], ctx) => devNode(ctx).revert(devQuantity(id, 0, 'id'))
