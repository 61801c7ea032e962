/**
 * Which IP a request is charged to. The socket peer, unless the peer is one of the operator's trusted
 * proxies (`--trusted-proxies`): then X-Forwarded-For is walked from the right, skipping further trusted
 * hops, to the first address no trusted proxy vouches for (X-Real-IP when there is no X-Forwarded-For).
 * Anyone else's forwarding headers are ignored, so a client cannot pick its own rate-limit bucket.
 *
 * Addresses come out canonical (IPv4 dotted, IPv6 compressed lower case, IPv4-mapped IPv6 as IPv4), so one
 * client has one bucket however its address was spelled or whichever socket family it arrived on.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { BlockList, isIP } from 'node:net'

export type ClientIpResolver = (socketAddress: string | undefined, headers: IncomingHttpHeaders) => string

/** What a request is charged to when the socket has already gone and its address is unknown. */
const UNKNOWN_CLIENT = 'unknown'

const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/

/** The canonical text of an address as a header or socket may write it (brackets, ports, zone ids); undefined if it is none. */
export function normalizeIp(text: string): string | undefined {
  let address = text.trim()
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address)
  if (bracketed) address = bracketed[1]!
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address)
  if (v4WithPort) address = v4WithPort[1]!
  address = address.split('%')[0]!
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return undefined
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const mapped = MAPPED_IPV4.exec(canonical)
  if (!mapped) return canonical
  const high = parseInt(mapped[1]!, 16)
  const low = parseInt(mapped[2]!, 16)
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
}

/** A BlockList of the given CIDRs or bare addresses (IPv4, IPv6, IPv4-mapped); throws on an entry that is neither. */
export function trustedProxyList(cidrs: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of cidrs) {
    const [address = '', prefix, ...rest] = entry.trim().split('/')
    const family = isIP(address)
    const bits = prefix === undefined ? undefined : Number(prefix)
    const maxBits = family === 6 ? 128 : 32
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d{1,3}$/.test(prefix!) && bits <= maxBits))) {
      throw new RangeError(`"${entry}" is not an IP address or CIDR range such as 10.0.0.0/8`)
    }
    const type = family === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, bits, type)
  }
  return list
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '')
}

/**
 * normalizeIp of socket addresses, remembering the last one: a kept-alive connection (or a proxy's) sends
 * request after request from one address, and the regexes were a visible part of a cheap call.
 */
function peerNormalizer(): (socketAddress: string | undefined) => string | undefined {
  let lastAddress: string | undefined
  let lastIp: string | undefined
  return (socketAddress) => {
    if (socketAddress === undefined) return undefined
    if (socketAddress !== lastAddress) {
      lastIp = normalizeIp(socketAddress)
      lastAddress = socketAddress
    }
    return lastIp
  }
}

export function createClientIpResolver(trustedProxies: readonly string[]): ClientIpResolver {
  const normalizePeer = peerNormalizer()
  if (trustedProxies.length === 0)
    return (socketAddress) => normalizePeer(socketAddress) ?? socketAddress ?? UNKNOWN_CLIENT
  const list = trustedProxyList(trustedProxies)
  const trusted = (ip: string) => list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4')

  return (socketAddress, headers) => {
    const peer = normalizePeer(socketAddress)
    if (peer === undefined) return socketAddress ?? UNKNOWN_CLIENT
    if (!trusted(peer)) return peer

    const hops = headerText(headers['x-forwarded-for'])
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '')
    if (hops.length === 0) {
      const realIp = headers['x-real-ip']
      return normalizeIp(Array.isArray(realIp) ? (realIp.at(-1) ?? '') : (realIp ?? '')) ?? peer
    }
    // each trusted hop appended the address it received from; the first untrusted one is the client
    let client = peer
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeIp(hops[i]!)
      // garbage left of here was written by someone we do not trust: the last good hop is all we know
      if (hop === undefined) return client
      client = hop
      if (!trusted(hop)) return hop
    }
    return client
  }
}

const resolvers = new WeakMap<readonly string[], ClientIpResolver>()

/** The client IP of one request; the resolver for a given trustedProxies array is built once and reused. */
export function clientIp(
  socketAddress: string | undefined,
  headers: IncomingHttpHeaders,
  trustedProxies: readonly string[],
): string {
  let resolve = resolvers.get(trustedProxies)
  if (!resolve) resolvers.set(trustedProxies, (resolve = createClientIpResolver(trustedProxies)))
  return resolve(socketAddress, headers)
}
