/**
 * Writers of each producer's feed dialect (test/fixtures/feed-dialects/README.md): a decoded flashblock as
 * X Layer's builder, op-rbuilder or Base's builder would put it on the wire, message and framing. The parts
 * every dialect writes alike (base, diff, a typed receipt) are src/feed/encode.ts's. The
 * fixtures pin them (src/feed/dialects.test.ts checks that a writer reproduces its fixture's frames), and the
 * follower's dialect test re-encodes a real leader's flashblocks with them.
 */
import { brotliCompressSync, constants } from 'node:zlib'
import type { FlashblockPayload } from '../../src/domain/types.js'
import { encodeBase, encodeDiff, typedReceipt } from '../../src/feed/encode.js'
import { address, data, quantity } from '../../src/format/hex.js'

export type Dialect = 'xlayer-reth' | 'op-rbuilder' | 'base'
export const DIALECTS: readonly Dialect[] = ['xlayer-reth', 'op-rbuilder', 'base']

type Json = Record<string, unknown>

/** The producer's message for a flashblock. */
export function writeMessage(dialect: Dialect, payload: FlashblockPayload): Json {
  const { metadata } = payload
  const common = {
    payload_id: data(payload.payloadId),
    index: payload.index,
    ...(payload.base ? { base: encodeBase(payload.base) } : {}),
    diff: {
      ...encodeDiff(payload.diff),
      // Lagoon's post-execution transaction (0x7d), which only X Layer's builder writes and this service never does
      ...(payload.diff.postExecTx ? { post_exec_tx: data(payload.diff.postExecTx) } : {}),
    },
  }
  const balances = () =>
    Object.fromEntries(metadata.newAccountBalances.map((a) => [address(a.address), quantity(a.balance)]))
  const receipts = () => Object.fromEntries(metadata.receipts.map((r) => [data(r.transactionHash), typedReceipt(r)]))
  const number = Number(metadata.blockNumber)
  switch (dialect) {
    case 'xlayer-reth':
      return {
        OpFlashblockPayload: {
          ...common,
          // OpFlashblockPayloadMetadata::new(number, None, None, fbal): no balances, no receipts
          metadata: {
            block_number: number,
            ...(metadata.accessList ? { access_list: data(metadata.accessList) } : {}),
          },
          target_index: payload.index === 0 ? 0 : (payload.targetIndex ?? 0),
        },
      }
    case 'op-rbuilder':
      return { ...common, metadata: { block_number: number, new_account_balances: balances(), receipts: receipts() } }
    case 'base':
      // FlashblocksMetadata's field order; its access_list is always None, written as null
      return {
        ...common,
        metadata: { receipts: receipts(), new_account_balances: balances(), block_number: number, access_list: null },
      }
  }
}

/** X Layer's end-of-block message; the others send none. */
export function writeEnd(dialect: Dialect, payloadId: Uint8Array): Json | undefined {
  return dialect === 'xlayer-reth' ? { OpFlashblockPayload: { payload_id: data(payloadId) } } : undefined
}

/** The message on the socket: X Layer's 0x1E + brotli binary frame, or text JSON. */
export function writeFrame(dialect: Dialect, message: Json): string | Buffer {
  const json = JSON.stringify(message)
  if (dialect !== 'xlayer-reth') return json
  const params = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 22 }
  return Buffer.concat([Buffer.of(0x1e), brotliCompressSync(Buffer.from(json), { params })])
}
