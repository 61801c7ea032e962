/**
 * eth_simulateV1's use of BlockBuilder past its API (execution/simulate/simulate.ts). A simulated block runs
 * its calls with runTx itself (geth's simulation rules: no nonce or balance checks unless asked, its own
 * errors), so it records each result in the builder as addTransaction would; it opens the builder's
 * checkpoint before the state overrides (geth applies them before the block's system calls); and it seals
 * the block with the roots of the transactions as run, which @ethereumjs would re-create from their fields
 * and refuses for some that geth simulates (the top nonce). The fields are private in @ethereumjs/vm's
 * declarations, without a type: these are their types in the package's source (buildBlock.ts).
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import type { BlockBuilder, RunTxResult } from '@ethereumjs/vm'

type BuilderFields = {
  checkpointed: boolean
  transactions: TypedTransaction[]
  transactionResults: RunTxResult[]
}

const fields = (builder: BlockBuilder) => builder as unknown as BuilderFields

/** Tells `builder` its checkpoint is open (the caller opened the journal's checkpoint itself). */
export function markCheckpointed(builder: BlockBuilder): void {
  fields(builder).checkpointed = true
}

/** Records a transaction run outside the builder as addTransaction records its own. */
export function recordTransaction(builder: BlockBuilder, tx: TypedTransaction, result: RunTxResult): void {
  fields(builder).transactions.push(tx)
  fields(builder).transactionResults.push(result)
  builder.gasUsed += result.totalGasSpent
  builder.blobGasUsed += result.blobGasUsed ?? 0n
}

/** Has `builder` build its block with these roots instead of re-creating the transactions from their fields. */
export function sealWithRoots(
  builder: BlockBuilder,
  roots: { transactionsTrie(): Promise<Uint8Array>; receiptTrie(): Promise<Uint8Array> },
): void {
  Object.assign(builder, roots)
  fields(builder).transactions.length = 0
}

/** Whether `builder` has the fields these write (installEvmPatches's check). */
export function hasBuilderFields(builder: BlockBuilder): boolean {
  const { checkpointed, transactions, transactionResults } = fields(builder)
  return checkpointed === false && Array.isArray(transactions) && Array.isArray(transactionResults)
}
