/**
 * The live page as a person opens it: GET /live (and GET / from a browser) in headless Chromium (Debian's
 * chromium through playwright-core), fed by the node's own WebSockets. The chain moves only when the test
 * builds a flashblock or seals a block, so the page is checked after every single step: it shows each
 * flashblock (block number, index, the transactions it added), each sealed block, and the latency of the
 * transactions it saw admitted. A screenshot is kept in test-results/live.png.
 */
import { mkdirSync } from 'node:fs'
import { bytesToHex } from '@ethereumjs/util'
import { CHROMIUM, HAVE_CHROMIUM } from '../support/system-tools.js'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'
import { startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'
import { signTx } from '../support/sign-tx.js'
import { until } from '../support/wait-for.js'

/** The page redraws within a frame of each event; a starved machine may need far longer, which proves nothing bad. */
const PATIENT = { timeout: 15_000 }

describe('the live page', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startFrozenService()
  })
  afterAll(() => service?.close())

  test('GET /live and a browser GET / answer the page; JSON clients still get the description and JSON-RPC', async () => {
    const live = await fetch(`${service.url}live`)
    expect(live.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await live.text()
    expect(html).toContain('<script type="module" src="/live/live.js">')
    const browser = await fetch(service.url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
    expect(await browser.text()).toBe(html)
    const script = await fetch(`${service.url}live/live.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    // what existed before the page: GET / without HTML in Accept, GET /flashblocks, POST /
    const endpointOf = async (response: Response) => ((await response.json()) as { endpoint: string }).endpoint
    expect(await endpointOf(await fetch(service.url))).toBe('general')
    const flashblocks = await fetch(service.flashblocksUrl, { headers: { accept: 'text/html' } })
    expect(await endpointOf(flashblocks)).toBe('flashblocks')
    expect((await rpc(service.url, 'eth_chainId')).result).toBe('0xc4')
  })

  describe.skipIf(!HAVE_CHROMIUM)('in headless Chromium', () => {
    let browser: Browser
    let page: Page
    const text = (id: string) => page.locator(`#${id}`).innerText()
    let nonce = 0
    const send = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const raw = await signTx(service.chain, 1, { nonce: nonce++ })
        expect((await rpc(service.url, 'eth_sendRawTransaction', [bytesToHex(raw)])).error).toBeUndefined()
      }
    }

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
      // the block opened at start is sealed first, so the page sees every flashblock of the next ones
      await service.chain.sealNow()
      page = await browser.newPage({ viewport: { width: 1200, height: 860 } })
      await page.goto(`${service.url}live`)
      await page.locator('body[data-ready="true"]').waitFor()
      // both sockets are served: the feed client and the two subscriptions are registered on the node
      await until(() => service.feed.count() === 1 && service.subscriptions.count() === 2, 'the page to subscribe')
    })
    afterAll(() => browser?.close())

    test('shows every flashblock as it comes: the block number, its index and the transactions it added', async () => {
      for (const [step, txs] of [2, 0, 3, 1, 4].entries()) {
        await send(txs)
        const flashblock = await service.chain.buildNow()
        const number = String(flashblock.metadata.blockNumber)
        await expect
          .poll(() => text('pending-index'), { ...PATIENT, message: `flashblock ${step}` })
          .toBe(String(flashblock.index))
        expect(await text('pending-block')).toBe(number)
        const slot = page.locator(`#filling .slot[data-index="${flashblock.index}"]`)
        expect(await slot.getAttribute('data-count')).toBe(String(flashblock.diff.transactions.length))
      }
    })

    test('moves a sealed block into the recent blocks and the head tile, with its flashblocks', async () => {
      const block = await service.chain.sealNow()
      await expect.poll(() => text('head'), PATIENT).toBe(String(block.number))
      const row = await page.locator('#recent tr').first().innerText()
      expect(row).toContain(String(block.number))
      expect(row).toContain(String(block.txs.length))
      // the next block starts filling from index 0
      await send(2)
      const next = await service.chain.buildNow()
      await expect.poll(() => text('pending-block'), PATIENT).toBe(String(next.metadata.blockNumber))
      expect(await page.locator('#filling .slot').count()).toBe(next.index + 1)
    })

    test('measures the preconfirmation latency of the transactions it saw admitted, and the feed clients', async () => {
      // the 12 user transactions sent so far were each admitted, then preconfirmed by a flashblock
      await expect.poll(() => text('latency-count'), PATIENT).toBe('12')
      expect(await text('latency-p50')).toMatch(/ms$/)
      await expect.poll(() => text('feed-clients'), PATIENT).toBe('1')
      await expect.poll(() => text('subscriptions'), PATIENT).toBe('2')
    })
  })
})

describe.skipIf(!HAVE_CHROMIUM)('the live page at the real cadence', () => {
  test('keeps up with a chain sealing every second under a stream of transfers, and is kept as a screenshot', async () => {
    const service = await startService({ port: 0, quiet: true, rateLimit: 0 })
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 860 } })
      await page.goto(`${service.url}live`)
      await page.locator('body[data-ready="true"]').waitFor()
      const startHead = Number(service.chain.store.height)
      // a few transfers every flashblock interval, from two senders, for about three blocks
      const nonces = [0, 0]
      for (let round = 0; round < 15; round++) {
        for (let i = 0; i <= round % 4; i++) {
          const sender = i % 2
          const raw = await signTx(service.chain, 1 + sender, { nonce: nonces[sender]++ })
          expect((await rpc(service.url, 'eth_sendRawTransaction', [bytesToHex(raw)])).error).toBeUndefined()
        }
        await new Promise((resolve) => setTimeout(resolve, service.config.flashblockIntervalMs))
      }
      await expect
        .poll(async () => Number(await page.locator('#head').innerText()), PATIENT)
        .toBeGreaterThan(startHead + 1)
      await expect
        .poll(async () => Number(await page.locator('#latency-count').innerText()), PATIENT)
        .toBeGreaterThan(0)
      expect(await page.locator('#recent tr').count()).toBeGreaterThan(1)
      mkdirSync('test-results', { recursive: true })
      await page.screenshot({ path: 'test-results/live.png', fullPage: true })
    } finally {
      await browser.close()
      await service.close()
    }
  }, 90_000)
})
