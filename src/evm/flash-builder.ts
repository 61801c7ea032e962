/**
 * Builds one block in flashblocks, in linear time (evm-engine.md section 1: BlockBuilder is quadratic).
 * Each flashblock: journal checkpoint, runTx of each candidate, commit at depth 0 (caches flushed into the
 * shared trie DB, so the root is readable through `stateAt`), state root, ordered tx/receipt roots, header
 * and hash. Sealing adds nothing: the sealed block is the last flashblock's header and transactions.
 */
import { type BlockHeader, type HeaderData, createBlockHeader, type Block } from '@ethereumjs/block'
import { Address, createContractAddress, equalsBytes } from '@ethereumjs/util'
import { Bloom, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import type { Message } from '@ethereumjs/evm'
import { assembleBlock, keyOf } from '../domain/block-record.js'
import { effectiveGasPrice } from '../domain/gas-price.js'
import { adoptCommon, callCommon } from './chain-common.js'
import { LIVE_STATE_CACHED_ENTRIES } from '../limits.js'
import { cachedEntries, checkpointDepth } from './patches/fields.js'
import { onValueMessages } from './patches/interpreted-frames.js'
import { flashblockOf } from './flashblock-of.js'
import { type BlockParams, type FollowedBlock, openFollowedBlock, openLocalBlock } from './open-block.js'
import { orderedTrieRoot } from './ordered-trie.js'
import { OpBlockFees } from '../opstack/op-block-fees.js'
import { BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT } from '../opstack/addresses.js'
import type { BlockRecord, Flashblock, FlashblockBase, ReceiptRecord, TxRecord, UserTxRecord } from '../domain/types.js'
import { type DepositTransaction, isUserTx } from '../domain/deposit-transaction.js'
import { DEPOSIT_TX_TYPE } from '../domain/deposit-encoding.js'
import { encodeDepositReceipt } from '../domain/deposit-receipt.js'
import { type DepositResult, runDeposit } from '../opstack/run-deposit.js'
import { isZeroPriced } from '../opstack/gasless.js'
import { GASLESS_BUDGET_SPENT, GaslessRunner } from './gasless-runner.js'
import type { FlashOptions, Skipped } from './flash-options.js'

export type { FlashOptions, Skipped } from './flash-options.js'
export type { BlockParams, FollowedBlock }

export class FlashBuilder {
  readonly number: bigint
  readonly baseFee: bigint
  readonly gasLimit: bigint
  readonly payloadId: Uint8Array
  readonly base: FlashblockBase
  private readonly headerData: HeaderData
  private readonly execBlock: Block
  private readonly txs: TxRecord[] = []
  private readonly receipts: ReceiptRecord[] = []
  private readonly txEnc: Uint8Array[] = []
  private readonly rcEnc: Uint8Array[] = []
  private readonly bloom: Bloom
  private gasUsed = 0n
  private logCount = 0
  private nextIndex = 0
  private last?: { header: BlockHeader; hash: Uint8Array }
  /** The balances the last flashblock published, by address: still the state's while its root stays. */
  private lastBalances = new Map<string, bigint>()
  /** OP Stack fees and the Jovian DA footprint; undefined when the chain charges gas only. */
  private readonly op: OpBlockFees | undefined
  /** Gasless transactions: undefined = none; else the block's budget (0n: none) and what they used of it. */
  private readonly gasless: GaslessRunner | undefined

  constructor(vm: VM, parent: BlockRecord, params: BlockParams)
  constructor(vm: VM, followed: FollowedBlock)
  constructor(
    private readonly vm: VM,
    parent: BlockRecord | FollowedBlock,
    params?: BlockParams,
  ) {
    const opened = 'base' in parent ? openFollowedBlock(parent, vm.common) : openLocalBlock(parent, params, vm.common)
    this.number = opened.number
    this.gasLimit = opened.gasLimit
    this.baseFee = opened.baseFee
    this.payloadId = opened.payloadId
    this.base = opened.base
    this.headerData = opened.headerData
    this.execBlock = opened.execBlock
    this.op = opened.opFees ? new OpBlockFees(opened.gasLimit) : undefined
    this.gasless =
      opened.gaslessBudget === undefined
        ? undefined
        : new GaslessRunner(vm, opened.execBlock, opened.headerData, opened.gaslessBudget, 'base' in parent)
    this.bloom = new Bloom(undefined, vm.common)
  }

  get index(): number {
    return this.nextIndex
  }

  get txCount(): number {
    return this.txs.length
  }

  /** Executes candidates (price/nonce ordered) on top of the block so far and publishes the result. */
  async flash(
    candidates: Iterable<TxRecord>,
    options: FlashOptions = {},
  ): Promise<{ flashblock: Flashblock; skipped: Skipped[] }> {
    const vm = this.vm
    const skipped: Skipped[] = []
    const blockedSenders = new Set<string>()
    const touched = new Map<string, Uint8Array>()
    const touch = (a: Address | undefined) => a && touched.set(a.toString(), a.bytes)
    // messages that move value only: the interpreter's frames, which emit no events, hand those back (interpreted-frames.ts)
    const onMessage = onValueMessages((m: Message) => {
      if (m.value === 0n) return
      touch(m.caller)
      touch(m.to)
    })
    const first = this.txs.length
    let depositsHeld = false
    let started = false
    vm.evm.events?.on('beforeMessage', onMessage)
    await vm.evm.journal.checkpoint()
    const depth = checkpointDepth(vm.stateManager)
    try {
      for (const record of candidates) {
        if (options.allOrNothing && skipped.length) break
        const senderKey = keyOf(record.sender)
        const deposit = !isUserTx(record)
        if (!deposit && blockedSenders.has(senderKey)) continue
        // deposits are forced inclusions: no deadline stops them, and one that does not fit holds back
        // the deposits after it (they keep their L1 order) for the next block
        if (!deposit && started && options.deadline !== undefined && performance.now() > options.deadline) break
        if (record.tx.gasLimit > this.gasLimit - this.gasUsed || (deposit && depositsHeld)) {
          blockedSenders.add(senderKey)
          depositsHeld ||= deposit
          skipped.push({ tx: record, reason: 'exceeds remaining block gas', drop: false })
          continue
        }
        if (deposit) {
          // deposits open the block, before any user transaction (OP Stack derivation rules)
          this.recordDeposit(record, await runDeposit(vm, (record.tx as DepositTransaction).deposit, this.execBlock))
          touch(new Address(record.sender))
          touch(record.tx.to)
          continue
        }
        const gasless = this.gasless && isZeroPriced(record) ? await this.gasless.verdict(record) : undefined
        if (gasless && gasless !== 'run' && gasless !== 'plain') {
          blockedSenders.add(senderKey)
          skipped.push({ tx: record, ...gasless })
          continue
        }
        const refusal = this.op && (await this.op.refusal(vm.stateManager, record, gasless === 'run'))
        if (refusal) {
          blockedSenders.add(senderKey)
          skipped.push({ tx: record, ...refusal })
          continue
        }
        started ||= !deposit
        let result: RunTxResult
        try {
          result =
            gasless === 'run'
              ? await this.gasless!.run(record, this.gasUsed)
              : await runTx(vm, { tx: record.tx, block: this.execBlock, blockGasUsed: this.gasUsed })
        } catch (err) {
          // runTx reverted its own checkpoint; state changed under the tx since admission (nonce, balance)
          // @ethereumjs appends "(vm hf=... -> block ... -> tx ...)" to the reason
          const reason = (err as Error).message.split(' (vm hf=')[0]
          if (checkpointDepth(vm.stateManager) !== depth) {
            // a JS exception inside the EVM (not a validation error) leaks a checkpoint: this flashblock's
            // state can no longer be trusted, so fail loudly rather than publish a wrong root
            throw new Error(
              `engine fault: transaction ${keyOf(record.hash)} left the state journal unbalanced (${reason})`,
            )
          }
          blockedSenders.add(senderKey)
          // a fee cap under this block's base fee may fit a later block: that one waits in the pool;
          // so does a gasless transaction past what is left of the block's gasless budget
          const waits = /is less than the block's baseFeePerGas/.test(reason) || reason === GASLESS_BUDGET_SPENT
          skipped.push({ tx: record, reason, drop: !waits })
          continue
        }
        this.record(
          record,
          result,
          await this.op?.charge(vm.stateManager, record, result.totalGasSpent, this.baseFee, gasless === 'run'),
        )
        touch(new Address(record.sender))
        touch(record.tx.to)
      }
    } finally {
      vm.evm.events?.off('beforeMessage', onMessage)
      await vm.evm.journal.commit() // depth 0: the state manager flushes its caches into the trie
      // and they keep every account, slot and code ever touched (@ethereumjs's ordered maps drop nothing: an
      // hour of transfers to new addresses held 180 000 accounts, ~20 KB of heap a block): flushed, they can go
      const state = vm.stateManager
      const bound = options.cachedEntries ?? LIVE_STATE_CACHED_ENTRIES
      if (checkpointDepth(state) === 0 && cachedEntries(state) > bound) state.clearCaches()
    }
    const stateRoot = options.stateRoot ?? (await vm.stateManager.getStateRoot())
    // nothing ran (four of five flashblocks of an idle chain) and the state is where the last one left it (no dev
    // node edit since): the same header and hash, without rebuilding them
    const last = this.last
    const unchanged = last && this.txs.length === first && equalsBytes(stateRoot, last.header.stateRoot)
    return {
      flashblock: unchanged
        ? await this.publish(first, touched, last, this.lastBalances)
        : await this.publish(first, touched, this.headerOver(stateRoot)),
      skipped,
    }
  }

  /** The header of the block so far over `stateRoot`, with its transactions' and receipts' roots. */
  private headerOver(stateRoot: Uint8Array): { header: BlockHeader; hash: Uint8Array } {
    const vm = this.vm
    for (let i = this.txEnc.length; i < this.txs.length; i++) {
      this.txEnc.push(this.txs[i].tx.serialize())
      const r = this.receipts[i]
      this.rcEnc.push(
        r.depositNonce !== undefined
          ? encodeDepositReceipt({ ...r, depositNonce: r.depositNonce })
          : encodeReceipt(this.receiptForTrie(i), r.type as 0 | 1 | 2 | 4),
      )
    }
    const header = adoptCommon(
      createBlockHeader(
        {
          ...this.headerData,
          stateRoot,
          gasUsed: this.gasUsed,
          // Jovian: an OP block's blobGasUsed is its DA footprint
          blobGasUsed: this.op?.daFootprint ?? 0n,
          logsBloom: this.bloom.bitvector,
          transactionsTrie: orderedTrieRoot(this.txEnc),
          receiptTrie: orderedTrieRoot(this.rcEnc),
        },
        // callCommon: no params merge per flashblock (adoptCommon hands the header the record Common)
        { common: callCommon(vm.common), freeze: false },
      ),
      vm.common,
    )
    return { header, hash: header.hash() }
  }

  /**
   * The next flashblock: the block as `last` describes it and the transactions since index `first`. `known`:
   * balances still the state's (nothing ran and the root stayed), which an idle block's flashblocks would
   * otherwise read and decode again from the account cache (the coinbase, and the fee vaults with OP fees).
   */
  private async publish(
    first: number,
    touched: Map<string, Uint8Array>,
    last: { header: BlockHeader; hash: Uint8Array },
    known?: ReadonlyMap<string, bigint>,
  ): Promise<Flashblock> {
    const vm = this.vm
    const { header, hash } = last
    this.last = last
    touched.set(keyOf(this.execBlock.header.coinbase.bytes), this.execBlock.header.coinbase.bytes)
    if (this.op?.feeParams)
      for (const vault of [BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT]) touched.set(keyOf(vault), vault)
    const newTxs = this.txs.slice(first)
    const newReceipts = this.receipts.slice(first)
    const accounts = [...touched]
    const balances = await Promise.all(
      accounts.map(async ([key, address]) => ({
        address,
        balance: known?.get(key) ?? (await vm.stateManager.getAccount(new Address(address)))?.balance ?? 0n,
      })),
    )
    this.lastBalances = new Map(accounts.map(([key], i) => [key, balances[i].balance]))
    const index = this.nextIndex++
    return flashblockOf({
      payloadId: this.payloadId,
      index,
      base: index === 0 ? this.base : undefined,
      number: this.number,
      header,
      hash,
      balances,
      executed: { header, txs: newTxs, receipts: newReceipts },
    })
  }

  /** The block as of the last flashblock. Throws if no flashblock was built. */
  seal(): BlockRecord {
    if (!this.last) throw new Error(`block ${this.number} has no flashblock to seal`)
    return assembleBlock(this.last.header, this.last.hash, [...this.txs], [...this.receipts])
  }

  private recordDeposit(record: TxRecord, result: DepositResult): void {
    this.txs.push(record)
    this.gasUsed += result.gasUsed
    this.receipts.push({
      type: DEPOSIT_TX_TYPE,
      status: result.status,
      gasUsed: result.gasUsed,
      cumulativeGasUsed: this.gasUsed,
      effectiveGasPrice: 0n,
      logsBloom: result.bloom.bitvector,
      logs: result.logs,
      ...(result.contractAddress ? { contractAddress: result.contractAddress } : {}),
      firstLogIndex: this.logCount,
      depositNonce: result.depositNonce,
    })
    this.logCount += result.logs.length
    this.bloom.or(result.bloom)
  }

  private record(record: UserTxRecord, result: RunTxResult, op?: ReceiptRecord['op']): void {
    const tx = record.tx
    const receipt = result.receipt
    const logs = receipt.logs.map(([address, topics, data]) => ({ address, topics, data }))
    this.txs.push(record)
    this.receipts.push({
      type: tx.type,
      status: 'status' in receipt ? receipt.status : 1,
      gasUsed: result.totalGasSpent,
      cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
      effectiveGasPrice: effectiveGasPrice(tx, this.baseFee),
      logsBloom: receipt.bitvector,
      logs,
      // geth reports the would-be address for a failed creation too
      ...(tx.to === undefined
        ? { contractAddress: createContractAddress(new Address(record.sender), tx.nonce).bytes }
        : {}),
      firstLogIndex: this.logCount,
      ...(op ? { op } : {}),
    })
    this.logCount += logs.length
    this.gasUsed += result.blockGasSpent ?? result.totalGasSpent
    this.bloom.or(result.bloom)
  }

  private receiptForTrie(i: number) {
    const r = this.receipts[i]
    return {
      status: r.status,
      cumulativeBlockGasUsed: r.cumulativeGasUsed,
      bitvector: r.logsBloom,
      logs: r.logs.map((l) => [l.address, [...l.topics], l.data] as [Uint8Array, Uint8Array[], Uint8Array]),
    }
  }
}
