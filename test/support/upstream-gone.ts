/**
 * How the follower names an upstream that went away: refused when its next request opens a new connection, reset
 * or closed when the request went out on a kept-alive socket the upstream dropped. Which of these a test sees is
 * the OS's timing, not the follower's behaviour (CI saw ECONNRESET where the refusal was expected).
 */
export function upstreamGone(url: string): RegExp {
  const quoted = url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  return new RegExp(`^upstream ${quoted} unavailable: (ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)`)
}
