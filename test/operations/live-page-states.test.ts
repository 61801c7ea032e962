/**
 * The live page opened at every state the chain can be in when a person opens it: before the block being
 * built has published any flashblock, in the middle of a block (its first flashblocks published before the
 * page connected), and after a reorg (evm_revert takes the chain back two blocks and rebuilds the open block
 * from its snapshot). At each, every page open so far shows no `undefined` or `NaN`, its console holds no
 * error or warning, and no request of it failed. The chain moves only when the test builds or seals.
 */
import { bytesToHex } from '@ethereumjs/util'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RunningService } from '../../src/service.js'
import { startFrozenService } from '../support/harness.js'
import { rpc } from '../support/rpc.js'
import { signTx } from '../support/sign-tx.js'
import { CHROMIUM, HAVE_CHROMIUM } from '../support/system-tools.js'
import { until } from '../support/wait-for.js'

/** The page redraws within a frame of each event; a starved machine may need far longer, which proves nothing bad. */
const PATIENT = { timeout: 15_000 }

interface OpenPage {
  page: Page
  /** Console errors and warnings, uncaught exceptions, failed requests and 4xx/5xx answers, as they came. */
  problems: string[]
}

describe.skipIf(!HAVE_CHROMIUM)('the live page opened at each state of the chain', () => {
  let service: RunningService
  let browser: Browser
  const pages: OpenPage[] = []
  let nonce = 0
  const send = async () => {
    const raw = await signTx(service.chain, 1, { nonce: nonce++ })
    expect((await rpc(service.url, 'eth_sendRawTransaction', [bytesToHex(raw)])).error).toBeUndefined()
  }
  const height = () => String(service.chain.store.height)
  const text = (page: Page, id: string) => page.locator(`#${id}`).innerText()

  async function open(): Promise<OpenPage> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 860 } })
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`))
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
    })
    const [feeds, subscriptions] = [service.feed.count(), service.subscriptions.count()]
    await page.goto(`${service.url}live`)
    await page.locator('body[data-ready="true"]').waitFor()
    await until(
      () => service.feed.count() === feeds + 1 && service.subscriptions.count() === subscriptions + 2,
      'the page to subscribe',
    )
    // everything the page loads by itself (its script, style, icon, first figures) has been asked for
    await page.waitForLoadState('networkidle')
    const opened = { page, problems }
    pages.push(opened)
    return opened
  }

  /** Every page open so far shows what it knows, placeholders for what it does not, and had no trouble. */
  async function everyPageRendersCleanly(): Promise<void> {
    for (const { page, problems } of pages) {
      const shown = await page.locator('body').innerText()
      expect(shown).not.toMatch(/undefined|NaN|null/)
      expect(problems).toEqual([])
    }
  }

  beforeAll(async () => {
    service = await startFrozenService()
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    await service?.close()
  })

  test('before any flashblock: the head it opened on, and placeholders for the block being built', async () => {
    const { page } = await open()
    await everyPageRendersCleanly()
    await expect.poll(() => text(page, 'head'), PATIENT).toBe(height())
    expect(await text(page, 'pending-block')).toBe('–')
    expect(await text(page, 'filling-number')).toBe('–')
    expect(await page.locator('#filling .slot').count()).toBe(0)
  })

  test('mid-block: the flashblocks published before it opened are marked missed, the rest counted', async () => {
    await service.chain.sealNow()
    await send()
    await service.chain.buildNow()
    await send()
    await service.chain.buildNow()
    const { page } = await open()
    await send()
    const flashblock = await service.chain.buildNow()
    expect(flashblock.index).toBeGreaterThan(0)
    await expect.poll(() => text(page, 'pending-index'), PATIENT).toBe(String(flashblock.index))
    await everyPageRendersCleanly()
    expect(await page.locator('#filling .slot').count()).toBe(flashblock.index + 1)
    expect(await page.locator('#filling .slot.missed').count()).toBe(flashblock.index)
    expect(await page.locator('#filling .slot.missed .count').first().innerText()).toBe('–')
    const newest = page.locator(`#filling .slot[data-index="${flashblock.index}"]`)
    expect(await newest.getAttribute('data-count')).toBe(String(flashblock.diff.transactions.length))
  })

  test('after a reorg: the head goes back, the blocks above it leave the list, and the rebuilt block fills up', async () => {
    const snapshot = (await rpc(service.url, 'evm_snapshot', [])).result
    const before = Number(height())
    await service.chain.sealNow()
    await send()
    await service.chain.buildNow()
    await service.chain.sealNow()
    for (const { page } of pages) await expect.poll(() => text(page, 'head'), PATIENT).toBe(String(before + 2))

    expect((await rpc(service.url, 'evm_revert', [snapshot])).result).toBe(true)
    expect(height()).toBe(String(before))
    // the open block rebuilt from the snapshot is published again: the pages open then get its flashblocks
    for (const { page } of pages) await expect.poll(() => text(page, 'pending-block'), PATIENT).toBe(String(before + 1))
    const late = await open()
    await everyPageRendersCleanly()
    for (const { page } of pages) {
      await expect.poll(() => text(page, 'head'), PATIENT).toBe(String(before))
      const listed = await page.locator('#recent tr td:first-child').allInnerTexts()
      expect(listed.map(Number).every((number) => number <= before)).toBe(true)
    }
    // the open block goes on from its snapshot: the late page sees its next flashblock, the others all of it
    await send()
    const flashblock = await service.chain.buildNow()
    expect(flashblock.metadata.blockNumber).toBe(BigInt(before + 1))
    for (const { page } of pages)
      await expect.poll(() => text(page, 'pending-index'), PATIENT).toBe(String(flashblock.index))
    expect(await text(late.page, 'pending-block')).toBe(String(before + 1))
    // sealed again, block before+1 is listed once
    await service.chain.sealNow()
    for (const { page } of pages) {
      await expect.poll(() => text(page, 'head'), PATIENT).toBe(String(before + 1))
      const listed = await page.locator('#recent tr td:first-child').allInnerTexts()
      expect(listed.filter((number) => number === String(before + 1))).toHaveLength(1)
    }
    await everyPageRendersCleanly()
  })
})
