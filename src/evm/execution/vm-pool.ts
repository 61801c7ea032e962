/**
 * Warm VMs for eth_call and eth_estimateGas. createVM costs 4–5 ms, more than most calls
 * (evm-engine.md section 3), so each recently used state root keeps a few idle VMs on a view of it. A call
 * borrows one and runs inside a state checkpoint it always reverts, which also keeps its writes out of the
 * shared trie node store (at depth 0 runTx's commit would flush them there). Concurrent calls on one root
 * get separate VMs: a VM's journal must not interleave.
 */
import { bytesToHex } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import { throwawayVmCommon } from '../chain-common.js'
import { stateAt } from '../state-views.js'
import { ExecutionTimeoutError } from '../../errors.js'
import { VM_POOL_MAX_ROOTS, VM_POOL_MAX_IDLE_PER_ROOT } from '../../limits.js'

export class VmPool {
  /** Insertion order is recency: the first key is the least recently used root. */
  private readonly idle = new Map<string, VM[]>()

  constructor(private readonly chainVm: VM) {}

  /** Runs `work` on a VM at `root` under `common`'s fork (default the chain's); nothing it writes survives. */
  async run<T>(root: Uint8Array, work: (vm: VM) => Promise<T>, common = this.chainVm.common): Promise<T> {
    const key = common === this.chainVm.common ? bytesToHex(root) : `${bytesToHex(root)}/${common.hardfork()}`
    const vm =
      this.take(key) ??
      (await createVM({
        common: throwawayVmCommon(common),
        stateManager: stateAt(this.chainVm, root),
        blockchain: this.chainVm.blockchain,
      }))
    await vm.stateManager.checkpoint()
    let stopped = false
    try {
      return await work(vm)
    } catch (err) {
      // a run stopped mid-frame (its time budget) leaves the frames' checkpoints open: the VM is not reused
      stopped = err instanceof ExecutionTimeoutError
      throw err
    } finally {
      await vm.stateManager.revert()
      if (!stopped) this.give(key, vm)
    }
  }

  private take(key: string): VM | undefined {
    const list = this.idle.get(key)
    const vm = list?.pop()
    if (list && list.length === 0) this.idle.delete(key)
    return vm
  }

  private give(key: string, vm: VM): void {
    const list = this.idle.get(key) ?? []
    if (list.length >= VM_POOL_MAX_IDLE_PER_ROOT) return
    list.push(vm)
    this.idle.delete(key) // re-insert: most recently used last
    this.idle.set(key, list)
    while (this.idle.size > VM_POOL_MAX_ROOTS) this.idle.delete(this.idle.keys().next().value!)
  }
}
