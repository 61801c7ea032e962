/**
 * A value now, or its promise when it has to be read first. The read path answers a request without a promise
 * when everything it needs is in memory (a read view's accounts, an in-memory trie): each promise hop of an
 * all-async path costs about a microsecond, a real share of a balance read.
 */
export type Eventually<T> = T | Promise<T>

/** `f` of the value: at once when it is there, else when it comes. */
export function andThen<T, U>(value: Eventually<T>, f: (value: T) => Eventually<U>): Eventually<U> {
  return value instanceof Promise ? value.then(f) : f(value)
}
