/** The part of autocannon's API bench/read-path.ts uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string
    method?: 'POST' | 'GET'
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
  }
  interface Result {
    requests: { total: number }
    latency: { p50: number; p99: number }
    non2xx: number
    errors: number
  }
  export default function autocannon(options: Options): Promise<Result>
}
