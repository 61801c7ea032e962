/**
 * eth_simulateV1's engine: builds the planned blocks one after another on a writable copy of the base
 * block's state, as geth's simulator. Each block gets its header from its overrides and its parent (base
 * fee zero unless validating or given, excess blob gas from the parent), its system calls (beacon root,
 * parent hash, EIP-7685 requests), its calls, and the roots and hash of a real block. Shared by the
 * embedded chain and a follower: they differ only in where the state is read from.
 */
import { createBlock, type Block, type BlockHeader } from '@ethereumjs/block'
import type { Common, StateManagerInterface } from '@ethereumjs/common'
import type { EVM, EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import { BlockBuilder, createVM, type VM } from '@ethereumjs/vm'
import { assembleBlock } from '../../../domain/block-record.js'
import { encodeReceiptRecord } from '../../../domain/raw-encoding.js'
import { orderedTrieRoot } from '../../ordered-trie.js'
import type { SimulatedBlock, SimulatedCall, SimulateRequest } from '../../../domain/simulate.js'
import type { BlockRecord, ReceiptRecord, TxRecord } from '../../../domain/types.js'
import { effectiveGasPrice } from '../../../domain/gas-price.js'
import { ExecutionTimeoutError, SimulateBlockGasLimitError } from '../../../errors.js'
import { CALL_TIMEOUT_MS, RPC_GAS_CAP } from '../../../limits.js'
import { deadlineAfter } from '../budget.js'
import { withTimeout } from '../time-limit.js'
import { commonAt } from '../../chain-common.js'
import { type IndexedLog, TransferTracer } from './call-logs.js'
import { applyStateOverrides } from '../state-overrides.js'
import { type PlannedBlock, planBlocks, simulatedHeader } from './plan.js'
import { runSimulatedCall, withBlobBaseFee } from './sim-call.js'
import { markCheckpointed, recordTransaction, sealWithRoots } from '../../patches/block-builder.js'
import { patchSimulationEvm } from '../../patches/install.js'
import { interpreterByDefault } from '../../interpreter/call.js'
import { fillCall, simulatedTx, simulationCommon } from './sim-tx.js'

export interface SimulationBase {
  /** The chain's rules (each simulated block runs under its own fork of them). */
  common: Common
  /** The base block; its state is `state`. */
  base: BlockRecord
  /** A writable state at the base block's root whose writes reach nothing shared (the caller drops it). */
  state: StateManagerInterface
  /** BLOCKHASH of the chain's own blocks. */
  blockHashes: EVMMockBlockchainInterface
  /** The request's time budget (ms; geth's --rpc.evmtimeout, 0 = none); default CALL_TIMEOUT_MS. */
  timeoutMs?: number
  /**
   * Whether the calls' outermost frames run on the interpreter (patches/interpreted-frames.ts); default: unless
   * PRECONF_EVM_INTERPRETER=0. false: @ethereumjs's runTx alone, the reference.
   */
  interpreter?: boolean
}

/**
 * The simulated blocks, within eth_call's time budget: the caller gets the timeout error when it passes, and
 * the work stops there too, between calls and inside a call's run (whose budget shares the deadline).
 */
export function simulate(base: SimulationBase, request: SimulateRequest): Promise<SimulatedBlock[]> {
  const timeoutMs = base.timeoutMs ?? CALL_TIMEOUT_MS
  return withTimeout(simulateBlocks(base, request, { timeoutMs, deadline: deadlineAfter(timeoutMs) }), timeoutMs)
}

async function simulateBlocks(base: SimulationBase, request: SimulateRequest, time: RequestTime) {
  const planned = planBlocks(request.blocks, base.base.header)
  // BLOCKHASH of the base block (a pending one is in no store) and of the blocks simulated so far
  const simulated = new Map<number, Uint8Array>([[Number(base.base.number), base.base.hash]])
  const blockchain: EVMMockBlockchainInterface = {
    getBlock: async (n: number) => {
      const hash = simulated.get(n)
      return hash ? { hash: () => hash } : base.blockHashes.getBlock(n)
    },
    putBlock: async () => {},
    shallowCopy: () => blockchain,
  } as EVMMockBlockchainInterface
  const budget = { remaining: RPC_GAS_CAP, ...time }
  const interpreter = base.interpreter ?? interpreterByDefault()
  // one VM per fork for the whole request: creating one costs more than an empty block
  const vms = new Map<Common, Promise<VM>>()
  const vmAt = (number: bigint, timestamp: bigint) => {
    const common = commonAt(base.common, { number, timestamp })
    let vm = vms.get(common)
    if (!vm) {
      vm = createVM({ common: simulationCommon(common), stateManager: base.state, blockchain: blockchain as never })
      if (interpreter)
        vm = vm.then((made) => {
          patchSimulationEvm(made.evm as EVM)
          return made
        })
      vms.set(common, vm)
    }
    return vm
  }
  const results: SimulatedBlock[] = []
  let parent: { header: BlockHeader; hash: Uint8Array } = { header: base.base.header, hash: base.base.hash }
  for (const block of planned) {
    const result = await simulateBlock(vmAt, block, parent, request, budget)
    simulated.set(Number(result.block.number), result.block.hash)
    results.push(result)
    parent = { header: result.block.header, hash: result.block.hash }
  }
  return results
}

/** A request's time budget (0: none) and when it ends (performance.now() time). */
type RequestTime = { timeoutMs: number; deadline: number }

/** What all calls of one request share: the RPC gas cap (geth's) and the time budget (eth_call's). */
type Budget = RequestTime & { remaining: bigint }

async function simulateBlock(
  vmAt: (number: bigint, timestamp: bigint) => Promise<VM>,
  planned: PlannedBlock,
  parent: { header: BlockHeader; hash: Uint8Array },
  request: SimulateRequest,
  budget: Budget,
): Promise<SimulatedBlock> {
  const o = planned.blockOverrides
  const vm = await vmAt(o.number, o.time)
  const common = vm.common
  const headerData = simulatedHeader(common, o, parent, request.validation)
  const builder = new BlockBuilder(vm, {
    parentBlock: { header: parent.header, hash: () => parent.hash } as unknown as Block,
    headerData: headerData as never,
    withdrawals: common.isActivatedEIP(4895) ? (o.withdrawals ?? []) : undefined,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
  })
  // the builder's checkpoint opens before the overrides: the state root it takes at the end flushes only the
  // writes of its own checkpoint level, and geth applies overrides before the block's system calls
  await vm.evm.journal.checkpoint()
  markCheckpointed(builder)
  await applyStateOverrides(vm, planned.stateOverrides)
  await builder.initState()
  // the header every call of the block runs in (unfrozen: its blob base fee may be overridden)
  const context = createBlock(
    { header: headerData as never },
    { common, skipConsensusFormatValidation: true, freeze: false },
  )
  withBlobBaseFee(context, o.blobBaseFee)
  const ctx = {
    vm,
    block: context,
    validation: request.validation,
    blobBaseFee: o.blobBaseFee,
    tracer: request.traceTransfers ? new TransferTracer() : undefined,
    deadline: budget.deadline,
    timeoutMs: budget.timeoutMs,
  }
  const txs: TxRecord[] = []
  const receipts: ReceiptRecord[] = []
  const calls: UnplacedCall[] = []
  let logCount = 0
  for (const request of planned.calls) {
    if (performance.now() > budget.deadline) throw new ExecutionTimeoutError(budget.timeoutMs)
    const remaining = context.header.gasLimit - builder.gasUsed
    const nonce =
      request.nonce ?? (await vm.stateManager.getAccount(new Address(request.from ?? new Uint8Array(20))))?.nonce ?? 0n
    const wanted = request.gas ?? remaining
    if (wanted > remaining) throw new SimulateBlockGasLimitError(remaining, wanted)
    const gas = wanted > budget.remaining ? budget.remaining : wanted
    const call = fillCall(request, nonce, gas, common)
    const record = simulatedTx(call, common)
    const { result, logs, outcome } = await runSimulatedCall(ctx, call, record.tx, builder.gasUsed, logCount)
    budget.remaining -= result.totalGasSpent
    recordTransaction(builder, record.tx, result)
    const receiptLogs = result.receipt.logs.map(([address, topics, data]) => ({ address, topics, data }))
    receipts.push({
      type: record.tx.type,
      status: outcome.status,
      gasUsed: result.totalGasSpent,
      cumulativeGasUsed: builder.gasUsed,
      effectiveGasPrice: effectiveGasPrice(record.tx, context.header.baseFeePerGas),
      logsBloom: result.bloom.bitvector,
      logs: receiptLogs,
      firstLogIndex: logCount,
    })
    logCount += receiptLogs.length
    txs.push(record)
    calls.push({ ...outcome, logs })
  }
  // the roots of the transactions as run (the builder would re-create them from their fields, which
  // @ethereumjs refuses for some that geth simulates, such as the top nonce)
  sealWithRoots(builder, {
    transactionsTrie: async () => orderedTrieRoot(txs.map((t) => t.raw)),
    receiptTrie: async () => orderedTrieRoot(receipts.map(encodeReceiptRecord)),
  })
  const { block } = await builder.build()
  const record = assembleBlock(block.header, block.hash(), txs, receipts)
  const withdrawals = block.withdrawals ? { withdrawals: block.withdrawals } : {}
  return { block: { ...record, ...withdrawals }, calls: positionLogs(calls, record) }
}

/** Call logs with their place in the finished block. */
type UnplacedCall = Omit<SimulatedCall, 'logs'> & { logs: IndexedLog[] }

function positionLogs(calls: UnplacedCall[], block: BlockRecord): SimulatedCall[] {
  return calls.map((call, i) => ({
    ...call,
    logs: call.logs.map((log) => ({
      address: log.address,
      topics: log.topics,
      data: log.data,
      blockNumber: block.number,
      blockHash: block.hash,
      blockTimestamp: block.header.timestamp,
      transactionHash: block.txs[i].hash,
      transactionIndex: i,
      logIndex: log.logIndex,
    })),
  }))
}
