import { SendSyncTimeoutError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import { formatReceipt } from '../../format/receipt.js'
import type { HandlerContext, Handler } from '../context.js'
import type { TxLocation } from '../../domain/types.js'

/**
 * eth_sendRawTransactionSync (EIP-7966): admission, then the receipt as soon as this endpoint can show it —
 * preconfirmed on /flashblocks, canonical on / (its resolver does not see pending transactions). The wait
 * subscribes before the send returns, so a flashblock published right after admission is not missed
 * (base/base#3826). A nonce gap is refused before admission (code 6, the expected nonce in `data`); a wait
 * that runs out answers code 4 with the hash.
 */
export const eth_sendRawTransactionSync: Handler<'eth_sendRawTransactionSync'> = async ([raw, timeout], ctx) => {
  const timeoutMs = waitMs(timeout, ctx.config.sendSyncTimeoutMs)
  const hash = await ctx.submit.sendRawTransaction(parseData(raw), { rejectNonceGap: true })
  const located = await waitVisible(ctx, hash, timeoutMs)
  if (!located) throw new SendSyncTimeoutError(data(hash), timeoutMs)
  return formatReceipt(located.block, located.index)
}

/**
 * The wait: the requested milliseconds (a JSON number as the EIP and Base take it, or a hex quantity as viem
 * and geth send it), clamped to `--rpc.send-raw-transaction-sync-timeout`; none or 0 waits that long (EIP-7966:
 * an invalid timeout means the node's; geth and reth clamp, Base refuses more than its 6 s).
 */
function waitMs(timeout: number | string | null | undefined, maxMs: number): number {
  if (timeout == null) return maxMs
  const ms = typeof timeout === 'string' ? BigInt(timeout) : BigInt(timeout)
  return ms > 0n && ms < BigInt(maxMs) ? Number(ms) : maxMs
}

/** Waits until the transaction is preconfirmed, then (if this endpoint shows only canonical ones) sealed. */
async function waitVisible(ctx: HandlerContext, hash: Uint8Array, timeoutMs: number): Promise<TxLocation | undefined> {
  const deadline = Date.now() + timeoutMs
  if (!(await ctx.submit.waitForReceipt(hash, timeoutMs, { preconfirmed: true }))) return undefined
  const visible = await ctx.resolver.tx(hash)
  if (visible) return visible
  if (!(await ctx.submit.waitForReceipt(hash, Math.max(0, deadline - Date.now()), { preconfirmed: false })))
    return undefined
  return await ctx.resolver.tx(hash)
}
