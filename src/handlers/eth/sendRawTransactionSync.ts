import { InvalidParamsError, SendSyncTimeoutError, SendSyncTimeoutTooLongError } from '../../errors.js'
import { data, parseData } from '../../format/hex.js'
import { formatReceipt } from '../../format/receipt.js'
import { SEND_SYNC_MAX_TIMEOUT_MS } from '../../limits.js'
import type { HandlerContext, Handler } from '../context.js'
import type { TxLocation } from '../../domain/types.js'

/**
 * eth_sendRawTransactionSync (EIP-7966): admission, then the receipt as soon as this endpoint can show it —
 * preconfirmed on /flashblocks, canonical on / (its resolver does not see pending transactions). The wait
 * subscribes before the send returns, so a flashblock published right after admission is not missed
 * (base/base#3826). Timeout: default and maximum SEND_SYNC_MAX_TIMEOUT_MS, as Base's node.
 */
export const eth_sendRawTransactionSync: Handler<'eth_sendRawTransactionSync'> = async ([raw, timeout], ctx) => {
  const timeoutMs = parseTimeout(timeout)
  const hash = await ctx.submit.sendRawTransaction(parseData(raw))
  const located = await waitVisible(ctx, hash, timeoutMs)
  if (!located) throw new SendSyncTimeoutError(data(hash), timeoutMs)
  return formatReceipt(located.block, located.index)
}

/** viem sends a JSON number; a hex quantity is taken too. */
function parseTimeout(timeout: number | string | null | undefined): number {
  if (timeout == null) return SEND_SYNC_MAX_TIMEOUT_MS
  const ms = typeof timeout === 'string' ? Number(BigInt(timeout)) : timeout
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new InvalidParamsError(
      `invalid argument 1 (timeout): expected a whole number of milliseconds, got ${JSON.stringify(timeout)}`,
    )
  if (ms > SEND_SYNC_MAX_TIMEOUT_MS) {
    throw new SendSyncTimeoutTooLongError(ms, SEND_SYNC_MAX_TIMEOUT_MS)
  }
  return ms
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
