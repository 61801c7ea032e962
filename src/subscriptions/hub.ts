/**
 * The subscription hub: which connection holds which subscription, by kind. Kinds parse their own params;
 * events.ts feeds chain events to the live subscriptions of each kind. Connections leave through
 * removeSubscriber, so a closed socket never keeps a subscription alive.
 */
import { InvalidParamsError, SubscriptionNotFoundError, TooManySubscriptionsError } from '../errors.js'
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../limits.js'
import { newSubscriptionId } from './id.js'
import { notificationFrame } from './notification.js'
import type { Subscriber, Subscription, SubscriptionKindSpec } from './types.js'

export interface HubOptions {
  maxPerConnection?: number
}

export class SubscriptionHub {
  private readonly kinds = new Map<string, SubscriptionKindSpec>()
  private readonly byKind = new Map<string, Map<string, Subscription>>()
  private readonly bySubscriber = new Map<Subscriber, Map<string, Subscription>>()
  private readonly maxPerConnection: number

  constructor(kinds: readonly SubscriptionKindSpec[], options: HubOptions = {}) {
    for (const kind of kinds) {
      this.kinds.set(kind.name, kind)
      this.byKind.set(kind.name, new Map())
    }
    this.maxPerConnection = options.maxPerConnection ?? MAX_SUBSCRIPTIONS_PER_CONNECTION
  }

  /** eth_subscribe: `params` is the whole positional list, kind name first. Returns the new id. */
  subscribe(subscriber: Subscriber, params: readonly unknown[]): string {
    const name = params[0]
    if (typeof name !== 'string') throw new InvalidParamsError('expected subscription name as first argument')
    const kind = this.kinds.get(name)
    if (!kind?.endpoints.includes(subscriber.endpoint)) throw new SubscriptionNotFoundError(name)
    const parsed = kind.parseParams(params.slice(1))
    let own = this.bySubscriber.get(subscriber)
    if (own && own.size >= this.maxPerConnection) {
      throw new TooManySubscriptionsError(this.maxPerConnection)
    }
    const id = newSubscriptionId()
    const subscription: Subscription = {
      id,
      kind: name,
      params: parsed,
      subscriber,
      notify: (resultJson) => subscriber.send(notificationFrame(id, resultJson)),
    }
    if (!own) this.bySubscriber.set(subscriber, (own = new Map()))
    own.set(id, subscription)
    this.byKind.get(name)!.set(id, subscription)
    return id
  }

  /** eth_unsubscribe: true when the id was one of this connection's subscriptions. */
  unsubscribe(subscriber: Subscriber, id: unknown): boolean {
    if (typeof id !== 'string') return false
    const own = this.bySubscriber.get(subscriber)
    const subscription = own?.get(id)
    if (!own || !subscription) return false
    own.delete(id)
    if (own.size === 0) this.bySubscriber.delete(subscriber)
    this.byKind.get(subscription.kind)!.delete(id)
    return true
  }

  /** Drops every subscription of a connection (its socket closed). */
  removeSubscriber(subscriber: Subscriber): void {
    const own = this.bySubscriber.get(subscriber)
    if (!own) return
    for (const subscription of own.values()) this.byKind.get(subscription.kind)!.delete(subscription.id)
    this.bySubscriber.delete(subscriber)
  }

  /** The live subscriptions of a kind, in subscription order. Empty when nobody listens. */
  subscriptionsOf<P>(kind: SubscriptionKindSpec<P>): Subscription<P>[] {
    const map = this.byKind.get(kind.name)
    return map && map.size > 0 ? ([...map.values()] as Subscription<P>[]) : []
  }

  /** Live subscriptions in all, or of one kind: for tests, metrics and the events wiring (no subscriber, no view). */
  count(kind?: string): number {
    if (kind !== undefined) return this.byKind.get(kind)?.size ?? 0
    let total = 0
    for (const map of this.byKind.values()) total += map.size
    return total
  }

  /** Connections holding at least one subscription. */
  connections(): number {
    return this.bySubscriber.size
  }
}
