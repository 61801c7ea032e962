/**
 * One block's gasless transactions (X Layer) while it is built: whether a zero-priced candidate runs gasless,
 * and running it as op-revm does, within the block's gasless budget. A followed block has no budget of its own
 * (the sequencer applied it) and runs an uncovered zero-priced transaction as a plain one.
 */
import { type Block, createBlock, type HeaderData } from '@ethereumjs/block'
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import type { UserTxRecord } from '../domain/types.js'
import { coveredBy, queryAllowance } from '../opstack/gasless.js'

export const GASLESS_BUDGET_SPENT = "the block's gasless gas budget is spent"

/** 'run': gasless now; 'plain': as any transaction; else why it does not run now (`drop`: nor ever). */
export type GaslessVerdict = 'run' | 'plain' | { reason: string; drop: boolean }

export class GaslessRunner {
  private used = 0n
  private exhausted = false
  private zeroFeeBlock: Block | undefined

  /** `budget`: gas the block's gasless transactions may use (0n: no budget). */
  constructor(
    private readonly vm: VM,
    private readonly execBlock: Block,
    private readonly headerData: HeaderData,
    private readonly budget: bigint,
    private readonly followed: boolean,
  ) {}

  /**
   * Whether a zero-priced transaction runs gasless now, or why not: off the whitelist (dropped, as xlayer-reth's
   * pool refuses it), or the block's gasless budget is spent (it waits for the next block; xlayer-reth's builder
   * stops simulating zero-priced candidates once it is, crates/builder/src/flashblocks/context.rs).
   */
  async verdict(record: UserTxRecord): Promise<GaslessVerdict> {
    if (this.exhausted) return { reason: GASLESS_BUDGET_SPENT, drop: false }
    if (coveredBy(await queryAllowance(this.vm, this.execBlock, record.tx), record.tx)) return 'run'
    // a followed block's zero-priced transaction off the whitelist runs as any other (a base fee of 0 lets it)
    if (this.followed) return 'plain'
    return { reason: 'zero-priced transaction not covered by the gasless whitelist', drop: true }
  }

  /**
   * Runs a gasless transaction as op-revm does (okx/optimism 3349a7c rust/op-revm/src/handler.rs): under a base
   * fee of 0 (BASEFEE reads 0), paying no gas, no L1 or operator fee, rewarding no one. Past the block's
   * gasless budget it is undone and throws GASLESS_BUDGET_SPENT: it waits for the next block.
   */
  async run(record: UserTxRecord, blockGasUsed: bigint): Promise<RunTxResult> {
    this.zeroFeeBlock ??= createBlock({ header: { ...this.headerData, baseFeePerGas: 0n } }, { common: this.vm.common })
    const journal = this.vm.evm.journal
    await journal.checkpoint()
    let result: RunTxResult
    try {
      result = await runTx(this.vm, { tx: record.tx, block: this.zeroFeeBlock, blockGasUsed })
    } catch (err) {
      await journal.revert()
      throw err
    }
    if (!this.followed && this.budget > 0n && this.used + result.totalGasSpent > this.budget) {
      await journal.revert()
      this.exhausted = true
      throw new Error(GASLESS_BUDGET_SPENT)
    }
    await journal.commit()
    this.used += result.totalGasSpent
    return result
  }
}
