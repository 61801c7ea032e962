/**
 * The call most eth_calls and eth_estimateGas runs are: to a contract, no access or authorization list, from
 * an account without code. For it, runTx's work around the interpreter (a transaction object, signature,
 * nonce, fee and balance checks, a receipt and bloom, a checkpoint of a trie-backed state) changes nothing in
 * the answer, so it runs on the EVM alone (its outermost frame as top-frame.ts enters it) on a CallState over
 * the root's shared read view, with what a transaction would set up: the intrinsic gas taken off, EIP-2929's
 * warm sender, recipient, coinbase and precompiles, and the call's block context. A call that pays (fee
 * fields or a value) runs on the interpreter alone, from the accounts runTx's gas purchase and transfer leave
 * (call-payment.ts). Anything else returns undefined and takes the runTx path, which keeps geth's errors for
 * the cases it checks.
 */
import type { Common } from '@ethereumjs/common'
import { createEVM, type EVM, type EVMResult } from '@ethereumjs/evm'
import { type Account, Address, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { BlockHeader } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { impliedTxType, paysFees, type CallRequest } from '../../domain/call-request.js'
import { CallState, type StateSource } from './call-state.js'
import { pays, paymentOf } from './call-payment.js'
import { CallMemo, type CallAnswer } from './call-memo.js'
import { assertEvmPatchesInstalled, patchCallEvm } from '../patches/install.js'
import { setAlwaysWarm } from '../patches/warm-set.js'
import { withBudget } from './budget.js'
import { blockContext } from './block-context.js'
import { runTopFrame, topFrameFits } from '../patches/top-frame.js'
import { throwawayVmCommon } from '../chain-common.js'
import { CALL_TIMEOUT_MS, CALL_EVMS_MAX_IDLE } from '../../limits.js'
import { interpretCall, interpreterByDefault, interpreterFits } from '../interpreter/call.js'
import type { InterpretedCall } from '../interpreter/run.js'
import { andThen, type Eventually, withCleanup } from '../../capabilities/eventually.js'

/** Forks after Prague reprice intrinsic gas (EIP-2780, 7976, 7981, 8037): those calls take runTx's path. */
const REPRICING_EIPS = [2780, 7976, 7981, 8037]

/** An EVM of the call path with its own Common, made under the fork the chain's Common had then. */
interface CallEvm {
  evm: EVM
  state: CallState
  fork: string
  /** The fork's intrinsic gas prices; undefined when it does not price as intrinsicGas() does (runTx's path). */
  prices: IntrinsicPrices | undefined
  topFrame: boolean
  /** Whether the interpreter (src/evm/interpreter/) has the fork's opcodes and prices. */
  interpreter: boolean
  /** The precompiles' addresses, every call's always-warm set's first part (warmFromTheStart). */
  precompiles: readonly string[]
  /**
   * Whether the reference path ran on it since it was last cleaned: the interpreter reads its own source and
   * keeps its own journal, so a call it answered leaves the EVM's journal, transient storage and state as
   * they were (cleaning them made ~8 maps and sets a call).
   */
  used: boolean
}

export class CallEvms {
  private readonly idle: CallEvm[] = []
  private readonly zero = new Address(new Uint8Array(20))
  private readonly memo = new CallMemo()
  /** Each fork's prices as its EVMs' Commons give them (a follower's chain Common lacks the transaction params). */
  private readonly gasByFork = new Map<string, { prices: IntrinsicPrices | undefined; refundQuotient: bigint }>()

  constructor(
    private readonly vm: VM,
    /** Each run's own time budget (withBudget); geth's --rpc.evmtimeout. */
    private readonly timeoutMs = CALL_TIMEOUT_MS,
    /** Run calls on the interpreter first (false: the patched @ethereumjs loop alone, the reference). */
    private readonly interpreter = interpreterByDefault(),
  ) {
    assertEvmPatchesInstalled()
  }

  /**
   * One idle EVM made now, at a service's start-up, rather than in its first eth_call: a process's first
   * createEVM costs ~3 ms of CPU (later ones 0.5-0.9), and anvil answers a short call in ~1. A failure is
   * left to the first call's own create, which reports it.
   */
  prepare(): void {
    this.create().then(
      (slot) => this.putBack(slot),
      () => {},
    )
  }

  /**
   * The call's result, or undefined when the request is not a plain read-only call (the caller then runs it
   * with runTx). `source` is the read view of the state root `header` names. Without a promise when the
   * answer is kept or the run's reads are all in memory; a failure is always a rejection.
   */
  run(
    source: StateSource,
    header: BlockHeader,
    request: CallRequest,
    gasLimit: bigint,
  ): Eventually<CallAnswer | undefined> {
    return this.memo.answer(header, request, gasLimit, () => this.runOnce(source, header, request, gasLimit))
  }

  /**
   * As `run`, without the memo: for a caller trying many gas limits once each (eth_estimateGas's search),
   * whose runs share its `deadline` (performance.now() time).
   */
  runOnce(
    source: StateSource,
    header: BlockHeader,
    request: CallRequest,
    gasLimit: bigint,
    deadline?: number,
  ): Eventually<EVMResult | undefined> {
    if (!eligible(request) || !request.to) return undefined
    const taken = this.take()
    // the EVM goes back to the idle ones once the run is settled; no closure bound to a name here: tsx's
    // keepNames gives each one a defineProperty per call
    if (taken instanceof Promise)
      return taken.then((slot) =>
        withCleanup(
          () => this.start(slot, source, header, request, gasLimit, deadline),
          () => this.putBack(slot),
        ),
      )
    return withCleanup(
      () => this.start(taken, source, header, request, gasLimit, deadline),
      () => this.putBack(taken),
    )
  }

  private start(
    slot: CallEvm,
    source: StateSource,
    header: BlockHeader,
    request: CallRequest,
    gasLimit: bigint,
    deadline: number | undefined,
  ): Eventually<EVMResult | undefined> {
    const { prices } = slot
    if (!prices) return undefined
    const data = request.data ?? new Uint8Array(0)
    const intrinsic = intrinsicGas(prices, data)
    if (gasLimit < intrinsic.minimum) return undefined
    const from = request.from ? new Address(request.from) : this.zero
    const to = new Address(request.to!)
    // a paying call runs on the interpreter or on runTx: the reference frame here neither buys gas nor moves value
    const paying = pays(request)
    if (paying && !(this.interpreter && slot.interpreter)) return undefined
    // EIP-3607 applies to a sender with code (runTx refuses it, or allows a 7702 delegation)
    const senderCode = source.readCode ? source.readCode(from) : source.getCode(from)
    return andThen(senderCode, (code) => {
      if (code.length > 0) return undefined
      const block = blockContext(header, paysFees(request), this.vm.common)
      const frame: InterpretedCall = { block, from, to, data, gasLimit: gasLimit - intrinsic.regular }
      if (!paying) return this.runFrame(slot, source, header, frame, deadline)
      const baseFee = block.header.baseFeePerGas ?? 0n
      return andThen(accountsOf(source, from, to, request), ([sender, recipient]) => {
        frame.paid = paymentOf(request, gasLimit, baseFee, sender, recipient, from.equals(to))
        return frame.paid ? this.runFrame(slot, source, header, frame, deadline) : undefined
      })
    })
  }

  /**
   * The frame on the interpreter, else on the reference path; a paying frame the interpreter hands back is
   * undefined (runTx's path then): the reference frame neither buys gas nor moves value.
   */
  private runFrame(
    slot: CallEvm,
    source: StateSource,
    header: BlockHeader,
    frame: InterpretedCall,
    deadline: number | undefined,
  ): Eventually<EVMResult | undefined> {
    const { evm } = slot
    const interpreter = this.interpreter && slot.interpreter
    return withBudget(
      evm,
      this.timeoutMs,
      () => {
        const answered = interpreter ? interpretCall(evm, source, frame) : undefined
        if (answered instanceof Promise)
          return answered.then((result) => result ?? (frame.paid ? undefined : reference(slot, source, frame, header)))
        return answered ?? (frame.paid ? undefined : reference(slot, source, frame, header))
      },
      deadline,
    )
  }

  /**
   * What runTx would count for a transaction whose run gave `result` (runOnce's, for `request`): the gas it
   * spends (intrinsic and execution gas less the refund, capped at a fifth, or EIP-7623's calldata floor
   * where that is more) and the refund. eth_estimateGas's first run reads both. Undefined when the chain has
   * moved to a fork no EVM here was made for since (the caller runs runTx then).
   */
  spent(request: CallRequest, result: EVMResult): { totalGasSpent: bigint; gasRefund: bigint } | undefined {
    const gas = this.gasByFork.get(this.vm.common.hardfork())
    if (!gas?.prices) return undefined
    const intrinsic = intrinsicGas(gas.prices, request.data ?? new Uint8Array(0))
    const before = intrinsic.regular + result.execResult.executionGasUsed
    const refunded = result.execResult.gasRefund ?? 0n
    const cap = before / gas.refundQuotient
    const spent = before - (refunded < cap ? refunded : cap)
    if (spent < intrinsic.floor) return { totalGasSpent: intrinsic.floor, gasRefund: 0n }
    return { totalGasSpent: spent, gasRefund: refunded }
  }

  /** The EVM back with the idle ones, clean. */
  private putBack(slot: CallEvm): void {
    if (slot.used) {
      // not cleanup(): its EIP-161 sweep of touched accounts writes to a state the next call resets anyway
      slot.evm.journal.cleanJournal()
      slot.evm.transientStorage.clear()
      slot.state.detach()
      slot.used = false
    }
    if (this.idle.length < CALL_EVMS_MAX_IDLE) this.idle.push(slot)
  }

  /** An idle EVM under the chain's fork now (an import moves its Common from fork to fork), or a new one. */
  private take(): CallEvm | Promise<CallEvm> {
    const fork = this.vm.common.hardfork()
    for (let slot = this.idle.pop(); slot; slot = this.idle.pop()) if (slot.fork === fork) return slot
    return this.create()
  }

  private async create(): Promise<CallEvm> {
    const state = new CallState()
    // its own Common: a burst beyond CALL_EVMS_MAX_IDLE makes EVMs that are dropped after, and an EVM stays reachable
    // from the Common it was made on (chain-common.ts, throwawayVmCommon)
    const common = throwawayVmCommon(this.vm.common)
    const evm = await createEVM({ common, stateManager: state as never, blockchain: this.vm.blockchain as never })
    patchCallEvm(evm)
    const prices = REPRICING_EIPS.some((eip) => common.isActivatedEIP(eip)) ? undefined : intrinsicPrices(common)
    this.gasByFork.set(common.hardfork(), { prices, refundQuotient: common.param('maxRefundQuotient') })
    const topFrame = topFrameFits(common)
    const interpreter = topFrame && interpreterFits(common)
    const precompiles = [...evm.precompiles.keys()]
    return { evm, state, fork: common.hardfork(), prices, topFrame, interpreter, precompiles, used: false }
  }
}

/** The call on @ethereumjs's loop (the reference path): the interpreter keeps its own warm sets, the journal's are set here. */
async function reference(
  slot: CallEvm,
  source: StateSource,
  frame: InterpretedCall,
  header: BlockHeader,
): Promise<EVMResult> {
  const { evm } = slot
  slot.used = true
  slot.state.reset(source)
  warmFromTheStart(evm, slot.precompiles, [frame.from, frame.to, header.coinbase])
  return (
    (slot.topFrame ? await runTopFrame(evm, frame) : undefined) ??
    (await evm.runCall({
      ...frame,
      caller: frame.from,
      origin: frame.from,
      value: 0n,
      gasPrice: 0n,
      skipNonceIncrement: true,
    }))
  )
}

/** The sender's account, and the recipient's when value moves to it (read at once when the view has them). */
function accountsOf(
  source: StateSource,
  from: Address,
  to: Address,
  request: CallRequest,
): Eventually<[Account | undefined, Account | undefined]> {
  const read = (address: Address) =>
    andThen(source.readAccount ? source.readAccount(address) : source.getAccount(address), (a) => a ?? undefined)
  const sender = read(from)
  if ((request.value ?? 0n) === 0n) return andThen(sender, (a) => [a, undefined])
  return andThen(sender, (a) => andThen(read(to), (b) => [a, b]))
}

/** No warm slots: only an access list adds any, and these calls have none. */
const NO_SLOTS: Set<string> = new Set()

/** EIP-2929's always-warm set of a call: the precompiles and `addresses` (warm-set.ts). */
function warmFromTheStart(evm: EVM, precompiles: readonly string[], addresses: Address[]): void {
  const warm = new Map<string, Set<string>>()
  for (const address of precompiles) warm.set(address, NO_SLOTS)
  for (const address of addresses) warm.set(bytesToUnprefixedHex(address.bytes), NO_SLOTS)
  setAlwaysWarm(evm, warm)
}

function eligible(request: CallRequest): boolean {
  const type = impliedTxType(request)
  return (
    (type === undefined || type === 0 || type === 2) &&
    (request.accessList?.length ?? 0) === 0 &&
    request.authorizationList === undefined
  )
}

/**
 * A fork's prices of a call transaction's intrinsic gas, read once per EVM (Common.param looks each one up), as
 * numbers: a call's intrinsic gas is far below 2^53, and BigInt arithmetic made ten BigInts a call.
 */
interface IntrinsicPrices {
  base: number
  zero: number
  nonZero: number
  /** EIP-7623's calldata floor per token, when the fork has it. */
  floorPerToken: number | undefined
}

/** `common`: the EVM's, which has the transaction params merged (a follower's record Common has not). */
function intrinsicPrices(common: Common): IntrinsicPrices {
  return {
    base: Number(common.param('txGas')),
    zero: Number(common.param('txDataZeroGas')),
    nonZero: Number(common.param('txDataNonZeroGas')),
    floorPerToken: common.isActivatedEIP(7623) ? Number(common.param('totalCostFloorPerToken')) : undefined,
  }
}

/** A call transaction's intrinsic gas and the least gas limit runTx accepts (EIP-7623's calldata floor). */
function intrinsicGas(prices: IntrinsicPrices, data: Uint8Array): { regular: bigint; minimum: bigint; floor: bigint } {
  let zeros = 0
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  const nonZeros = data.length - zeros
  const regular = prices.base + zeros * prices.zero + nonZeros * prices.nonZero
  const floor = prices.floorPerToken === undefined ? 0 : prices.base + prices.floorPerToken * (zeros + nonZeros * 4)
  return { regular: BigInt(regular), minimum: BigInt(floor > regular ? floor : regular), floor: BigInt(floor) }
}
