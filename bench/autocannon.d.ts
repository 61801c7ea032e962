/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string
    method?: 'POST' | 'GET'
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    /** Requests to send in all (instead of a duration). */
    amount?: number
    /** Per-request bodies: setupRequest may rewrite each request before it is sent. */
    requests?: { setupRequest?: (request: { body?: string }) => { body?: string } }[]
  }
  interface Result {
    requests: { total: number }
    latency: { p50: number; p99: number }
    non2xx: number
    errors: number
  }
  export default function autocannon(options: Options): Promise<Result>
}
