/**
 * installEvmPatches's checks that the fields the patches read and write are where they read them, on
 * throw-away objects of each class: a field renamed or moved by a release is an EvmPatchError naming it at
 * start-up, not an undefined read in the middle of a request.
 */
import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createZeroAddress } from '@ethereumjs/util'
import { BlockBuilder, createVM } from '@ethereumjs/vm'
import { hasBuilderFields } from './block-builder.js'
import { chainParams, checkpointDepth, headerHashFunction, liveTrie } from './fields.js'
import type { InterpreterClass } from './internals.js'
import { EvmPatchError } from './patch-error.js'
import { storageAtFlushHolds } from './storage-at-flush.js'
import { hasWarmJournal } from './warm-set.js'

function need(hook: string, present: boolean): void {
  if (!present) throw new EvmPatchError(hook, 'it is not where the patch reads it (renamed, moved or of another kind)')
}

const isMap = (value: unknown) => value instanceof Map
const isFunction = (value: unknown) => typeof value === 'function'

/** The Interpreter methods the call path's subclass overrides or calls. */
export function probeInterpreter(Interpreter: InterpreterClass): void {
  for (const method of ['run', 'runStep', '_getValidJumpDestinations', 'lookupOpInfo', 'useGas'] as const)
    need(`Interpreter.${method}`, isFunction(Interpreter.prototype[method]))
}

export async function probeFields(): Promise<void> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  need('Common._chainParams', chainParams(common)?.name === 'mainnet')
  need('Common._buildParamsCache', isFunction(common['_buildParamsCache']))
  need('Common._params', typeof common['_params'] === 'object' && common['_params'] !== null)

  const state = new MerkleStateManager({ common })
  need('MerkleStateManager._trie', liveTrie(state) instanceof MerklePatriciaTrie)
  await state.checkpoint()
  need('MerkleStateManager._checkpointCount', checkpointDepth(state) === 1)
  await state.revert()
  need(
    'MerkleStateManager.putStorage (written through) and .flush (the storage cache written)',
    await storageAtFlushHolds(common),
  )

  const vm = await createVM({ common, stateManager: state })
  const evm = vm.evm as EVM
  need('EVM._optsCached', typeof evm['_optsCached'] === 'object' && evm['_optsCached'] !== null)
  need('EVM._opcodes', isMap(evm['_opcodes']))
  need('EVM._handlers', isMap(evm['_handlers']))
  need('EVM._dynamicGasHandlers', isMap(evm['_dynamicGasHandlers']))
  need('EVM._opcodeMap', Array.isArray(evm['_opcodeMap']))
  need('EVM._loadCode', isFunction(evm['_loadCode']))
  need('EVM.runInterpreter', isFunction(evm['runInterpreter']))
  need('Journal.alwaysWarmJournal', hasWarmJournal(evm))
  need('Journal.journal', isMap(evm.journal['journal']))
  need('Journal.touchAddress', isFunction(evm.journal['touchAddress']))
  need('EVM.events.listeners', isFunction(evm.events?.listeners))
  // runCall sets the call's transaction and block context where runInterpreter reads them
  await evm.runCall({ to: createZeroAddress(), gasLimit: 100_000n })
  need('EVM._tx', typeof evm['_tx']?.gasPrice === 'bigint')
  need('EVM._block', evm['_block'] !== undefined)

  const parentBlock = createBlock({}, { common })
  need('BlockHeader.keccakFunction', isFunction(headerHashFunction(parentBlock.header)))
  const builder = new BlockBuilder(vm, { parentBlock })
  need('BlockBuilder.checkpointed, .transactions, .transactionResults', hasBuilderFields(builder))
}
