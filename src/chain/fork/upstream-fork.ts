/**
 * The upstream of a forked chain (`--fork-url`, `--fork-block-number`): its chain id and fork block,
 * checked once at start so a bad URL, a dead node or a block past its head is one sentence, not a hang;
 * then the follower's parts over it, which answer everything at or below the fork block: blocks and
 * transactions (UpstreamHistory), state and calls at their number (FollowerState, FollowerExecutor).
 */
import type { Common } from '@ethereumjs/common'
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

/** The follower's upstream-backed parts, for everything at or below the fork block. */
export class UpstreamFork {
  readonly history: UpstreamHistory
  readonly state: FollowerState
  readonly executor: FollowerExecutor

  private constructor(
    readonly point: ForkPoint,
    readonly common: Common,
    /** The fork block as the upstream has it. */
    readonly block: BlockRecord,
    history: UpstreamHistory,
  ) {
    const { upstream } = point
    this.history = history
    // an empty cache: every block the follower's parts look up is below the local chain, hence upstream
    this.state = new FollowerState(upstream, common, new BlockCache(1))
    this.executor = new FollowerExecutor({ upstream, common, state: this.state, pendingBlock: () => undefined })
  }

  static async open(point: ForkPoint, common: Common): Promise<UpstreamFork> {
    const history = new UpstreamHistory(point.upstream, common)
    let block: BlockRecord | undefined
    try {
      block = await history.block(point.number)
    } catch (err) {
      throw new ForkStartError(`--fork-url: block ${point.number} cannot be read: ${(err as Error).message}`)
    }
    if (!block) throw new ForkStartError(`--fork-url ${point.upstream.url} has no block ${point.number}`)
    return new UpstreamFork(point, common, block, history)
  }

  get number(): bigint {
    return this.point.number
  }
}
