/**
 * What a conformance case is: one example pairing of the OpenRPC document, ready to run against a node.
 * generated/conformance.ts lists the document's cases with `Method` narrowed to its method names.
 */
import type { Endpoint } from '../rpc/method-table.js'

export interface ConformanceCase<Method extends string = string> {
  /** `method: example name`, unique. */
  readonly id: string
  readonly method: Method
  readonly example: string
  /** The endpoint the example belongs to. */
  readonly endpoint: Endpoint
  /** Subscriptions exist only over WebSocket. */
  readonly websocket: boolean
  readonly params: readonly unknown[]
  /** The export of generated/validators.js that checks the result. */
  readonly resultValidator: string
  /** Present when any fresh node of the chain answers exactly this (`x-reproducible`); otherwise the result is checked against the schema only. */
  readonly expected?: unknown
  /** Present when the example shows a refusal (`x-error-code`): the call must fail with this code. */
  readonly expectedError?: number
  /** Runs first on the same connection; its result replaces params[0] (a filter or subscription id). */
  readonly setup?: { readonly method: Method; readonly params: readonly unknown[] }
}
