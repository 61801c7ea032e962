/**
 * The shapes the subscription hub works with. The hub knows nothing of WebSocket: a Subscriber is anything
 * that can take a serialized frame, so the transport decides buffering and disconnection.
 */
import type { Endpoint } from '../../generated/methods.js'

/** One WebSocket connection as the hub sees it. */
export interface Subscriber {
  readonly endpoint: Endpoint
  /** Sends one already-serialized JSON-RPC frame; may close the connection (slow consumer). */
  send(frame: string): void
}

/** A live subscription; `notify` takes the result already serialized, so a payload is stringified once. */
export interface Subscription<P = unknown> {
  readonly id: string
  readonly kind: string
  readonly params: P
  readonly subscriber: Subscriber
  notify(resultJson: string): void
}

/**
 * One subscription kind: where it is offered and how its params are read. The events it reacts to are wired
 * in events.ts, which hands each kind the list of its live subscriptions.
 */
export interface SubscriptionKindSpec<P = unknown> {
  readonly name: string
  readonly endpoints: readonly Endpoint[]
  /** Reads eth_subscribe's arguments after the kind name; throws InvalidParamsError. */
  parseParams(args: readonly unknown[]): P
}
