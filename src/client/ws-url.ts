/** The WebSocket URL of an HTTP endpoint: the same host, port and path under ws:// (wss:// for https://). */
export function wsUrlOf(httpUrl: string): string {
  return httpUrl.replace(/^http(s?):/i, (_, secure: string) => (secure ? 'wss:' : 'ws:'))
}
