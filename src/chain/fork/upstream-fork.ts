/**
 * The upstream of a forked chain (`--fork-url`, `--fork-block-number`): its chain id and fork block,
 * checked once at start so a bad URL, a dead node or a block past its head is one sentence, not a hang;
 * then the follower's parts over it, which answer everything at or below the fork block: blocks and
 * transactions (UpstreamHistory), state and calls at their number (FollowerState, FollowerExecutor).
 */
import type { Common } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import type { Executor } from '../../capabilities/execute.js'
import { ForkStartError, UpstreamError } from '../../errors.js'
import { BlockCache } from '../../follower/block-cache.js'
import { FollowerExecutor } from '../../follower/follower-executor.js'
import { FollowerState } from '../../follower/follower-state.js'
import { UpstreamHistory } from '../../follower/history.js'
import { UpstreamClient } from '../../follower/upstream-client.js'
import type { BlockRecord } from '../../domain/types.js'

/** What `--fork-url` / `--fork-block-number` (and anvil_reset's `forking`) name. */
export interface ForkTarget {
  url: string
  /** Default: the upstream's latest block. */
  blockNumber?: bigint
}

/** The upstream answered: its chain id and the number of the block to fork at. */
export interface ForkPoint {
  upstream: UpstreamClient
  chainId: bigint
  number: bigint
}

export async function reachFork(target: ForkTarget): Promise<ForkPoint> {
  const upstream = new UpstreamClient(target.url)
  let answers: unknown[]
  try {
    answers = await upstream.batch([
      { method: 'eth_chainId', params: [] },
      { method: 'eth_blockNumber', params: [] },
    ])
  } catch (err) {
    if (err instanceof UpstreamError) throw new ForkStartError(`--fork-url: ${err.message}`)
    throw err
  }
  const [chainId, head] = answers.map((answer) => (typeof answer === 'string' ? BigInt(answer) : undefined))
  if (chainId === undefined || head === undefined)
    throw new ForkStartError(`--fork-url ${target.url} did not answer eth_chainId and eth_blockNumber with numbers`)
  const number = target.blockNumber ?? head
  if (number > head)
    throw new ForkStartError(`--fork-block-number ${number} is past the head of ${target.url} (block ${head})`)
  return { upstream, chainId, number }
}

/**
 * The follower's upstream-backed parts, for everything at or below the fork block. One object for the
 * chain's life: anvil_reset's re-fork points it at another block (or node) and every holder sees the move.
 */
export class UpstreamFork {
  private parts: Loaded
  readonly executor: Executor
  /** BLOCKHASH of the fork block and below, from whichever upstream the fork is on now. */
  readonly blockHashes: EVMMockBlockchainInterface

  private constructor(
    readonly common: Common,
    loaded: Loaded,
    /** Calls' time budget (ms; --rpc.evmtimeout, 0 = none). */
    private readonly timeoutMs?: number,
  ) {
    this.parts = loaded
    this.executor = new ForkTimeExecutor(() => this.parts.executor)
    this.blockHashes = {
      getBlock: (n: number) => this.parts.state.blockHashes.getBlock(n),
      putBlock: async () => {},
      shallowCopy: () => this.blockHashes,
    }
  }

  static async open(point: ForkPoint, common: Common, timeoutMs?: number): Promise<UpstreamFork> {
    return new UpstreamFork(common, await load(point, common, timeoutMs), timeoutMs)
  }

  /** Moves to another upstream block: the parts are replaced once the new fork block has been read. */
  async repoint(point: ForkPoint): Promise<void> {
    this.parts = await load(point, this.common, this.timeoutMs)
  }

  get number(): bigint {
    return this.parts.point.number
  }

  get url(): string {
    return this.parts.point.upstream.url
  }

  /** The fork block as the upstream has it. */
  get block(): BlockRecord {
    return this.parts.block
  }

  get history(): UpstreamHistory {
    return this.parts.history
  }

  get state(): FollowerState {
    return this.parts.state
  }
}

interface Loaded {
  point: ForkPoint
  block: BlockRecord
  history: UpstreamHistory
  state: FollowerState
  executor: FollowerExecutor
}

async function load(point: ForkPoint, common: Common, timeoutMs: number | undefined): Promise<Loaded> {
  const { upstream } = point
  const history = new UpstreamHistory(upstream, common)
  let block: BlockRecord | undefined
  try {
    block = await history.block(point.number)
  } catch (err) {
    throw new ForkStartError(`--fork-url: block ${point.number} cannot be read: ${(err as Error).message}`)
  }
  if (!block) throw new ForkStartError(`--fork-url ${upstream.url} has no block ${point.number}`)
  // an empty cache: every block the follower's parts look up is below the local chain, hence upstream
  const state = new FollowerState(upstream, common, new BlockCache(1))
  const executor = new FollowerExecutor({ upstream, common, state, pendingBlock: () => undefined, timeoutMs })
  return { point, block, history, state, executor }
}

/** The executor of whichever upstream block the fork is on at the time of the call. */
class ForkTimeExecutor implements Executor {
  constructor(private readonly current: () => Executor) {}

  call(...args: Parameters<Executor['call']>) {
    return this.current().call(...args)
  }

  estimateGas(...args: Parameters<Executor['estimateGas']>) {
    return this.current().estimateGas(...args)
  }

  createAccessList(...args: Parameters<Executor['createAccessList']>) {
    return this.current().createAccessList(...args)
  }

  simulate(...args: Parameters<Executor['simulate']>) {
    return this.current().simulate(...args)
  }

  trace(...args: Parameters<Executor['trace']>) {
    return this.current().trace(...args)
  }

  traceCall(...args: Parameters<Executor['traceCall']>) {
    return this.current().traceCall(...args)
  }
}
