import { ETHEREUMJS_VERSION } from './version.js'

/**
 * A patch of @ethereumjs that cannot be installed: a file moved, an export or field renamed, another release
 * than the one the patches were written for. Start-up stops with it rather than run shipped code where a
 * patch was meant to be (or a patch on code it was not written for).
 */
export class EvmPatchError extends Error {
  constructor(
    readonly hook: string,
    problem: string,
  ) {
    super(
      `EVM patch ${hook} cannot be installed: ${problem} (the patches in src/evm/patches/ are written for ` +
        `@ethereumjs ${ETHEREUMJS_VERSION}; docs/design/evm-engine.md has the upgrade checklist)`,
    )
    this.name = 'EvmPatchError'
  }
}
