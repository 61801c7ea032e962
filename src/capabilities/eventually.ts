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

/**
 * `work`'s value, with `cleanup` run once it is settled: at once for a value, when the promise settles for one.
 * A throw of `work` comes back as a rejection, as from an async function.
 */
export function withCleanup<T>(work: () => Eventually<T>, cleanup: () => void): Eventually<T> {
  let result: Eventually<T>
  try {
    result = work()
  } catch (err) {
    cleanup()
    return Promise.reject(err)
  }
  if (result instanceof Promise) return result.finally(cleanup)
  cleanup()
  return result
}
