/** Errors of the dev-node methods (anvil_*, evm_*, hardhat_*) beyond bad params (-32602). */
import { InvalidInputError } from './rpc-error.js'

/** -32000: a method that rewrites history, on a chain whose history only grows (--data-dir). */
export class UnsupportedDevMethodError extends InvalidInputError {
  constructor(method: string) {
    super(`${method} is not available with --data-dir: the data directory's history only grows`)
  }
}
