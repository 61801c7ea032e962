/**
 * The published reference at GET /docs: served by a real service, opened in headless Chromium (Debian's
 * chromium through playwright-core), every method of the document rendered with its endpoints, pending
 * meaning, examples and errors. A screenshot is kept in test-results/docs.png.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { CHROMIUM, HAVE_CHROMIUM } from '../support/system-tools.js'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type RunningService } from '../../src/service.js'

const openrpc = JSON.parse(readFileSync(new URL('../../generated/openrpc.json', import.meta.url), 'utf8')) as {
  methods: { name: string; 'x-endpoints': string[] }[]
}
const methodNames = openrpc.methods.map((method) => method.name).sort()

describe('the docs page', () => {
  let service: RunningService

  beforeAll(async () => {
    service = await startService({ port: 0, quiet: true, rateLimit: 0 })
  })
  afterAll(() => service?.close())

  test('GET /docs answers an HTML page naming every method', async () => {
    const response = await fetch(`${service.url}docs`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await response.text()
    for (const name of methodNames) expect(html).toContain(`id="method-${name}"`)
  })

  describe.skipIf(!HAVE_CHROMIUM)('in headless Chromium', () => {
    let browser: Browser

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true })
    })
    afterAll(() => browser?.close())

    test('renders one section per method with its endpoints, pending meaning, examples and errors', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await page.goto(`${service.url}docs`)
      const rendered = await page.$$eval('section.method h2', (headings) => headings.map((h) => h.textContent ?? ''))
      expect(rendered.sort()).toEqual(methodNames)

      const balance = page.locator('#method-eth_getBalance')
      await expect.poll(() => balance.isVisible()).toBe(true)
      const balanceText = await balance.innerText()
      expect(balanceText).toContain('POST /flashblocks')
      expect(balanceText).toContain('the newest flashblock')
      expect(balanceText).toContain('"method": "eth_getBalance"')

      const send = await page.locator('#method-eth_sendRawTransaction').innerText()
      expect(send).toContain('-32000')
      expect(send).toContain('nonce too low')

      // every flashblocks-served method says so
      for (const method of openrpc.methods.filter((m) => m['x-endpoints'].includes('flashblocks'))) {
        expect(await page.locator(`#method-${method.name.replace('.', '\\.')} .tags`).innerText()).toContain(
          'POST /flashblocks',
        )
      }

      // the page fits its width: long hex values wrap instead of widening the layout
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280)

      mkdirSync('test-results', { recursive: true })
      await balance.scrollIntoViewIfNeeded()
      await page.screenshot({ path: 'test-results/docs.png', fullPage: false })

      // a schema link leads to its definition
      await page.locator('#method-eth_getBalance a[href="#schema-Address"]').first().click()
      expect(await page.locator('#schema-Address').isVisible()).toBe(true)
      await page.close()
    })
  })
})
