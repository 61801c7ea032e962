/**
 * `--import FILE`: RLP-encoded blocks one after another (what `geth export` writes and `geth import` reads),
 * executed in order on the chain's state with runBlock, which checks each header's state root, receipts
 * root, bloom, gas used and (from Prague) requests hash, and each body's transactions, uncles and
 * withdrawals roots. Every block runs under the fork its own number and timestamp select. The first block
 * that does not fit stops the import with a ConfigError naming it.
 */
import { readFileSync } from 'node:fs'
import { type Block, createBlockFromBytesArray } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex, createContractAddress } from '@ethereumjs/util'
import { type TxReceipt, createVM, runBlock } from '@ethereumjs/vm'
import { ConfigError } from '../config.js'
import { assembleBlock } from '../domain/block-record.js'
import { effectiveGasPrice } from '../domain/gas-price.js'
import type { BlockRecord, ReceiptRecord, TxRecord } from '../domain/types.js'
import { StoreBlockHashes } from './block-hashes.js'
import type { CanonicalStore } from './store.js'

/** The blocks of FILE in order (a bad encoding is a ConfigError naming the block's position). */
function readRlpBlocks(file: string, common: Common): Block[] {
  let rest: Uint8Array
  try {
    rest = new Uint8Array(readFileSync(file))
  } catch (err) {
    throw new ConfigError(`--import ${file}: ${(err as Error).message}`)
  }
  const blocks: Block[] = []
  while (rest.length > 0) {
    try {
      const { data, remainder } = RLP.decode(rest, true)
      blocks.push(createBlockFromBytesArray(data as never, { common, setHardfork: true }))
      rest = remainder
    } catch (err) {
      throw new ConfigError(`--import ${file}: block ${blocks.length + 1} of the file is not a valid block: ${err}`)
    }
  }
  return blocks
}

/**
 * Executes `blocks` on top of `parent` (the head so far) and returns their records; `onBlock` receives each
 * one before the next runs (it must make it visible to BLOCKHASH).
 */
async function importBlocks(
  blocks: readonly Block[],
  parent: BlockRecord,
  stateManager: MerkleStateManager,
  common: Common,
  blockHashes: StoreBlockHashes,
  onBlock: (record: BlockRecord) => void,
): Promise<BlockRecord> {
  // a Common of its own: runBlock moves it to each block's fork
  const vm = await createVM({ common: common.copy(), stateManager, blockchain: blockHashes as never })
  let head = parent
  for (const block of blocks) {
    const name = `block ${block.header.number} (${bytesToHex(block.hash())})`
    if (block.header.number !== head.number + 1n || bytesToHex(block.header.parentHash) !== bytesToHex(head.hash))
      throw new ConfigError(`--import: ${name} does not follow block ${head.number} (${bytesToHex(head.hash)})`)
    let result: Awaited<ReturnType<typeof runBlock>>
    try {
      result = await runBlock(vm, { block, setHardfork: true, skipHeaderValidation: true })
    } catch (err) {
      const reason = String((err as Error).message ?? err).split(' (vm hf=')[0]
      throw new ConfigError(`--import: ${name} is invalid: ${reason}`)
    }
    head = blockRecord(
      block,
      result.receipts,
      result.results.map((r) => r.createdAddress?.bytes),
    )
    onBlock(head)
  }
  return head
}

/** `--import FILE` onto the store's head: every block executed and added to the store in turn. */
export async function importFile(
  file: string,
  store: CanonicalStore,
  stateManager: MerkleStateManager,
  common: Common,
  log: (message: string) => void,
): Promise<void> {
  const blocks = readRlpBlocks(file, common)
  const hashes = new StoreBlockHashes(store)
  await importBlocks(blocks, store.latest(), stateManager, common, hashes, (block) => store.add(block))
  log(`imported ${blocks.length} blocks from ${file}: head ${store.height}`)
}

function blockRecord(block: Block, receipts: TxReceipt[], created: (Uint8Array | undefined)[]): BlockRecord {
  const baseFee = block.header.baseFeePerGas
  const txs: TxRecord[] = block.transactions.map((tx: TypedTransaction) => ({
    hash: tx.hash(),
    tx,
    sender: tx.getSenderAddress().bytes,
    raw: tx.serialize(),
  }))
  let previousGas = 0n
  let logCount = 0
  const records: ReceiptRecord[] = receipts.map((receipt, i) => {
    const tx = block.transactions[i]!
    const logs = receipt.logs.map(([address, topics, data]) => ({ address, topics, data }))
    const record: ReceiptRecord = {
      type: tx.type,
      status: 'status' in receipt ? receipt.status : 1,
      ...('stateRoot' in receipt ? { root: receipt.stateRoot } : {}),
      gasUsed: receipt.cumulativeBlockGasUsed - previousGas,
      cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
      effectiveGasPrice: effectiveGasPrice(tx, baseFee),
      logsBloom: receipt.bitvector,
      logs,
      ...(tx.to === undefined
        ? { contractAddress: created[i] ?? createContractAddress(new Address(txs[i]!.sender), tx.nonce).bytes }
        : {}),
      firstLogIndex: logCount,
      ...('blobGasUsed' in receipt ? { blobGasUsed: receipt.blobGasUsed, blobGasPrice: receipt.blobGasPrice } : {}),
    }
    previousGas = receipt.cumulativeBlockGasUsed
    logCount += logs.length
    return record
  })
  return {
    ...assembleBlock(block.header, block.hash(), txs, records),
    size: block.serialize().length,
    ...(block.withdrawals ? { withdrawals: block.withdrawals } : {}),
    ...(block.uncleHeaders.length ? { uncles: block.uncleHeaders } : {}),
  }
}
