/**
 * eth_flashblocksEnabled and eth_flashblocksPeerStatus as xlayer-reth answers them (crates/rpc/src/default.rs,
 * crates/builder/src/broadcast/peer_status.rs), for this service's peers: WebSocket feed connections, not
 * libp2p streams. The sequencer (embedded chain) lists the clients of its /ws/flashblocks, each a dynamic
 * peer forgotten when it leaves; a follower lists its upstream feed, a static peer kept while it is down.
 * Peers sort static first, then by id, as X Layer's snapshot does.
 */
import type { FlashblocksPeer, FlashblocksPeerStatus } from '../../generated/types.js'
import type { FlashblocksStatus } from '../capabilities/flashblocks.js'
import type { ChainEvents, TypedEmitter } from '../evm/events.js'
import type { FeedClient } from '../follower/feed-client.js'
import type { FeedPublisher } from './publisher.js'

const secondsSince = (then: number, now: number) => Math.max(0, now - then) / 1000

/** The embedded chain: enabled once its sequencer (mining) has published a flashblock. */
export function sequencerStatus(options: {
  events: TypedEmitter<ChainEvents>
  mining: boolean
  publisher: FeedPublisher
  localPeerId: () => string
}): FlashblocksStatus {
  let published = false
  const off = options.events.on('flashblock', () => {
    published = true
    off()
  })
  return {
    enabled: () => options.mining && published,
    peerStatus() {
      const now = Date.now()
      const peers = options.publisher.clients().map(
        (c): FlashblocksPeer => ({
          peerId: c.peer,
          ...optional('multiaddr', multiaddr(`ws://${c.peer}`)),
          isStatic: false,
          connectionState: 'connected',
          hasStream: true,
          connectedDurationSecs: secondsSince(c.since, now),
          connectionCount: 1,
          ...optional('lastBroadcastSecsAgo', c.lastSentAt === undefined ? undefined : secondsSince(c.lastSentAt, now)),
        }),
      )
      return snapshot(options.localPeerId(), peers)
    },
  }
}

/** A follower: enabled while its feed is connected, not idle, and has brought a flashblock applied to pending. */
export function followerStatus(options: {
  feed: FeedClient | undefined
  applied: () => number
  localPeerId: () => string
}): FlashblocksStatus {
  const { feed } = options
  return {
    enabled: () => (feed?.connected ?? false) && !feed?.isIdle && options.applied() > 0,
    peerStatus() {
      if (!feed) return null
      const now = Date.now()
      const { connectedAt, disconnectedAt, lastFrameAt } = feed
      const state =
        connectedAt !== undefined ? 'connected' : disconnectedAt !== undefined ? 'disconnected' : 'never_connected'
      const peer: FlashblocksPeer = {
        peerId: feed.url,
        ...optional('multiaddr', multiaddr(feed.url)),
        isStatic: true,
        connectionState: state,
        hasStream: feed.connected,
        ...optional('connectedDurationSecs', connectedAt === undefined ? undefined : secondsSince(connectedAt, now)),
        ...optional(
          'disconnectedDurationSecs',
          state === 'disconnected' && disconnectedAt !== undefined ? secondsSince(disconnectedAt, now) : undefined,
        ),
        connectionCount: feed.stats.connects,
        // a follower receives: the seconds since its upstream last sent a frame
        ...optional('lastBroadcastSecsAgo', lastFrameAt === undefined ? undefined : secondsSince(lastFrameAt, now)),
      }
      return snapshot(options.localPeerId(), [peer])
    },
  }
}

function snapshot(localPeerId: string, peers: FlashblocksPeer[]): FlashblocksPeerStatus {
  peers.sort((a, b) => Number(b.isStatic) - Number(a.isStatic) || a.peerId.localeCompare(b.peerId))
  const count = (state: FlashblocksPeer['connectionState']) => peers.filter((p) => p.connectionState === state).length
  return {
    localPeerId,
    summary: {
      total: peers.length,
      connected: count('connected'),
      disconnected: count('disconnected'),
      neverConnected: count('never_connected'),
      staticPeers: peers.filter((p) => p.isStatic).length,
    },
    peers,
  }
}

/** A ws:// or wss:// URL as a multiaddr (/ip4|/ip6|/dns/<host>/tcp/<port>/ws|wss), as libp2p writes addresses. */
function multiaddr(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const secure = parsed.protocol === 'wss:'
  if (!secure && parsed.protocol !== 'ws:') return undefined
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  const kind = host.includes(':') ? 'ip6' : /^\d+\.\d+\.\d+\.\d+$/.test(host) ? 'ip4' : 'dns'
  const port = parsed.port || (secure ? '443' : '80')
  return `/${kind}/${host}/tcp/${port}/${secure ? 'wss' : 'ws'}`
}

/** `{[key]: value}` when value is defined, else nothing: xlayer-reth skips a None field. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
