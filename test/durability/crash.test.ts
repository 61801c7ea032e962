/**
 * kill -9 at random moments while three senders send through /flashblocks, 22 times over one data
 * directory: every block seen sealed keeps its hash, every receipt seen preconfirmed becomes canonical at
 * the same number and index with the same status, every accepted hash is mined, and each sender's next
 * nonce is accepted after each restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, test } from 'vitest'
import { BOB, DEV_KEYS } from '../support/dev-keys.js'
import { type LeaderProcess, startLeaderProcess } from '../support/leader-process.js'
import { type RpcReply, rpc } from '../support/rpc.js'
import { until } from '../support/wait-for.js'

const CYCLES = 22

/**
 * When each cycle's SIGKILL comes (ms after the leader started), from a seed: CRASH_SEED=<n> replays a run's
 * moments, which the test prints. mulberry32: a small generator with a 32-bit seed.
 */
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0
const killMoments = (() => {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  return Array.from({ length: CYCLES }, () => Math.round(150 + next() * 700))
})()
const dir = mkdtempSync(join(tmpdir(), 'preconf-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const args = ['--data-dir', dir, '--block-time', '0.2', '--flashblock-interval', '50']

interface Seen {
  number: string
  index: string
  status: string
}

const senders = DEV_KEYS.map((key) => ({
  account: privateKeyToAccount(key),
  nonce: 0,
  unanswered: undefined as Hex | undefined,
}))
const accepted = new Set<Hex>()
const preconfirmed = new Map<Hex, Seen>()
const sealed = new Map<string, Hex>()

const sign = (s: (typeof senders)[number]) =>
  s.account.signTransaction({
    chainId: 196,
    type: 'eip1559',
    nonce: s.nonce,
    to: BOB,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  })

async function call(url: string, method: string, params: unknown[]) {
  return rpc(url, method, params)
}

/** One sender: send the next nonce, wait for its preconfirmed receipt, repeat until the process dies. */
async function sendUntilKilled(leader: LeaderProcess, s: (typeof senders)[number], dead: () => boolean) {
  const fb = `${leader.url}flashblocks`
  while (!dead()) {
    const raw = s.unanswered ?? (await sign(s))
    s.unanswered = raw
    let reply: RpcReply
    try {
      reply = await call(fb, 'eth_sendRawTransaction', [raw])
    } catch {
      return // killed mid-request: resend the same bytes after the restart
    }
    // a reply after the kill was ordered is taken as lost: once the leader is dead another test's server may
    // listen on its port (a state test's fake upstream answered once: "the method … does not exist")
    if (dead()) return
    if (reply.error) {
      // only a resend after a crash may meet its own earlier copy
      expect(reply.error.message).toMatch(/already known|nonce too low/)
    }
    const hash = (reply.result as Hex | undefined) ?? (await keccakOf(raw))
    accepted.add(hash)
    s.unanswered = undefined
    s.nonce++
    for (;;) {
      let r: RpcReply
      try {
        r = await call(fb, 'eth_getTransactionReceipt', [hash])
      } catch {
        return
      }
      if (dead()) return
      if (r.result) {
        const receipt = r.result as { blockNumber: string; transactionIndex: string; status: string }
        preconfirmed.set(hash, { number: receipt.blockNumber, index: receipt.transactionIndex, status: receipt.status })
        break
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  }
}

async function keccakOf(raw: Hex): Promise<Hex> {
  const { keccak256 } = await import('viem')
  return keccak256(raw)
}

async function watchSealed(leader: LeaderProcess, dead: () => boolean) {
  while (!dead()) {
    try {
      const block = (await call(leader.url, 'eth_getBlockByNumber', ['latest', false])).result as {
        number: string
        hash: Hex
      }
      if (dead()) return
      sealed.set(block.number, block.hash)
    } catch {
      return
    }
    await new Promise((r) => setTimeout(r, 30))
  }
}

test(`${CYCLES} kill -9s under load lose no sealed block, no preconfirmation and no accepted transaction`, async () => {
  console.log(`kill moments (ms after each start): ${killMoments.join(' ')}; CRASH_SEED=${seed} replays them`)
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const leader = await startLeaderProcess(args)
    let dead = false
    const work = [...senders.map((s) => sendUntilKilled(leader, s, () => dead)), watchSealed(leader, () => dead)]
    await new Promise((r) => setTimeout(r, killMoments[cycle]))
    dead = true
    await leader.close() // SIGKILL
    await Promise.all(work)
  }
  const last = await startLeaderProcess(args)
  try {
    // every sender's next nonce is accepted, and everything sent becomes canonical
    for (const s of senders) {
      if (s.unanswered) {
        const reply = await call(last.url, 'eth_sendRawTransaction', [s.unanswered])
        if (reply.error) expect(reply.error.message).toMatch(/already known|nonce too low/)
        accepted.add(await keccakOf(s.unanswered))
        s.nonce++
      }
      const reply = await call(last.url, 'eth_sendRawTransaction', [await sign(s)])
      expect(reply.error).toBeUndefined()
      accepted.add(reply.result as Hex)
    }
    const canonical = new Map<Hex, Seen>()
    for (const hash of accepted) {
      await until(async () => {
        const r = (await call(last.url, 'eth_getTransactionReceipt', [hash])).result as {
          blockNumber: string
          transactionIndex: string
          status: string
        } | null
        if (r) canonical.set(hash, { number: r.blockNumber, index: r.transactionIndex, status: r.status })
        return r !== null
      }, `accepted transaction ${hash} to be mined`)
    }
    for (const [hash, seen] of preconfirmed) expect({ hash, ...canonical.get(hash) }).toEqual({ hash, ...seen })
    for (const [number, hash] of sealed) {
      const block = (await call(last.url, 'eth_getBlockByNumber', [number, false])).result as { hash: Hex }
      expect(block.hash).toBe(hash)
    }
    expect(preconfirmed.size).toBeGreaterThan(CYCLES)
  } finally {
    await last.close()
  }
}, 400_000)
