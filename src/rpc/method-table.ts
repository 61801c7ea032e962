/**
 * The document-independent part of generated/methods.ts: what a method spec holds, how one is built from
 * the generated data and validators, the handler map type, and the per-endpoint lookup the transport
 * dispatches with. Neither server nor client code: the generated files import it, and the client package's
 * types reach it through them.
 */
import { paramChecker, resultChecker, type Validator } from '../validation/check-params.js'

/** `x-endpoints`: the general endpoint (/) and the flashblocks endpoint (/flashblocks). */
export type Endpoint = 'general' | 'flashblocks'

export interface MethodSpec<Name extends string = string, Target extends string = Name> {
  readonly name: Name
  /** The handler that serves it: itself, or an alias's target. */
  readonly target: Target
  readonly paramNames: readonly string[]
  readonly requiredParams: number
  readonly endpoints: readonly Endpoint[]
  /** Reads flashblock state under `pending` on /flashblocks. */
  readonly pending: boolean
  /** Served beyond the spec's tables. */
  readonly extension: boolean
  /** eth_subscribe/eth_unsubscribe: over HTTP the transport answers with an error. */
  readonly websocketOnly: boolean
  /** A dev-node method (x-dev-node): -32601 unless the service serves them (src/config.ts devMethodsServed). */
  readonly devNode: boolean
  /** undefined when the params are valid, else the -32602 message, e.g. `invalid argument 0 (address): ...`. */
  checkParams(params: readonly unknown[]): string | undefined
  /** true when a result matches the result schema (tests and conformance; not on the hot path). */
  checkResult(result: unknown): boolean
}

/** One method as the generator writes it: the spec's data and the validators its checks are built from. */
export interface MethodDefinition<Name extends string, Target extends string>
  extends Omit<MethodSpec<Name, Target>, 'checkParams' | 'checkResult'> {
  /** One validator per entry of `paramNames`. */
  readonly paramValidators: readonly Validator[]
  readonly resultValidator: Validator
}

export function defineMethod<Name extends string, Target extends string>(
  definition: MethodDefinition<Name, Target>,
): MethodSpec<Name, Target> {
  const { paramValidators, resultValidator, ...data } = definition
  return {
    ...data,
    checkParams: paramChecker(data.paramNames, data.requiredParams, paramValidators),
    checkResult: resultChecker(resultValidator),
  }
}

/** One handler per method of `M` except the aliases `A` (they dispatch to their target). */
export type HandlersOf<M extends { [K in keyof M]: { params: unknown; result: unknown } }, A extends keyof M, Ctx> = {
  [K in Exclude<keyof M, A>]: (params: M[K]['params'], ctx: Ctx) => M[K]['result'] | Promise<M[K]['result']>
}

/** The spec of a method served on the endpoint, or undefined (-32601). */
export type MethodLookup<S extends MethodSpec> = (endpoint: Endpoint, name: string) => S | undefined

/** A lookup over a method table; maps, so names such as `toString` find nothing. */
export function methodLookup<S extends MethodSpec>(table: Readonly<Record<string, S>>): MethodLookup<S> {
  const served = new Map<Endpoint, Map<string, S>>()
  for (const spec of Object.values(table)) {
    for (const endpoint of spec.endpoints) {
      let specs = served.get(endpoint)
      if (!specs) served.set(endpoint, (specs = new Map()))
      specs.set(spec.name, spec)
    }
  }
  return (endpoint, name) => served.get(endpoint)?.get(name)
}
