import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { ADMIN } from '../helpers/server.ts'
import { clickButton, DIALOG, startPurchase } from '../helpers/storefront.ts'

// The service worker (ADR 0044) in a real Chromium: the public pages open offline, signed-in pages and
// payment answers never reach its cache, and a new worker drops the old caches.

/** Waits until the worker has installed (saved the public pages) and controls this page. */
async function controlled(page: Page) {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, { timeout: 30_000 })
}

/** Every URL path (with its query) in every cache of this origin. */
const cachedPaths = (page: Page) =>
  page.evaluate(async () => {
    const out: string[] = []
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname + new URL(r.url).search)
    return out
  })

describe('browser: offline service worker', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('offline, the buy page opens from its saved copy with the bundles, a clear offline notice and the orders this browser looked up', async () => {
    await factories.createOrder({ recipientNumber: '0241112233', paymentStatus: 'SUCCESS' })
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    await controlled(page)
    expect(await page.$('[data-testid="offline-notice"] p')).to.equal(null)
    // This browser looks its order up once, online.
    await page.click('#tab-orders')
    await page.waitForSelector('#lookup-phone')
    await page.type('#lookup-phone', '0241112233')
    await clickButton(page, 'Look Up')
    await page.waitForSelector('[data-testid="order-card"]')

    await page.setOfflineMode(true)
    await page.reload()
    await hydrated(page)
    await page.waitForSelector('[data-testid="offline-notice"] p')
    const text = await bodyText(page)
    expect(text).to.include('You are offline.')
    expect(await page.$$('[data-testid^="package-"]')).to.have.length.greaterThan(0)
    await page.waitForSelector('[data-testid="saved-orders"]')
    // As the look-up showed it (another browser's transaction id comes masked, and stays so).
    expect(await page.$eval('[data-testid="saved-orders"]', (e) => e.textContent))
      .to.include('1GB daily')
      .and.include('0241112233')
      .and.include('Status seen')

    // Another public page the visitor never opened was saved when the worker installed.
    await page.goto(url('/afa'))
    await hydrated(page)
    expect(await bodyText(page)).to.include('You are offline.')
    await page.setOfflineMode(false)
  })

  it('keeps no signed-in page and no payment answer after a journey through them, and serves the worker and manifest right', async () => {
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201112222', payer: '0241234567' })
    await controlled(page)
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    // The dialog's own watch asks /api/payment/status after 3 s: wait for that answer to have passed the worker.
    await page.waitForResponse((r) => r.url().includes('/api/payment/status/'), { timeout: 20_000 })

    const agent = await factories.createAgent({ name: 'Offline Agent' })
    await login(page, agent.user.email, agent.password)
    for (const p of ['/agent/dashboard', '/data-services', '/agent/orders']) {
      await page.goto(url(p))
      await hydrated(page)
    }
    await page.deleteCookie(...(await page.cookies()))
    await login(page, ADMIN.email, ADMIN.password)
    for (const p of ['/admin/orders', '/admin/overview']) {
      await page.goto(url(p))
      await hydrated(page)
    }

    const paths = await cachedPaths(page)
    expect(paths, 'the public pages are saved').to.include.members(['/', '/data-services', '/afa', '/login', '/agent/register'])
    const forbidden = paths.filter((p) => /^\/(admin|api|payment-callback|simulator)|^\/agent\/(?!register$)/.test(p))
    expect(forbidden).to.deep.equal([])
    // The saved buy page is the visitor's, though an agent opened it last.
    const saved = await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const hit = await (await caches.open(name)).match('/data-services')
        if (hit) return hit.text()
      }
      return ''
    })
    expect(saved).to.include('Sign In').and.not.include('Offline Agent').and.not.include('Sign Out')

    // The worker is asked for afresh on every visit; the manifest is linked and names an installable app.
    const sw = await page.evaluate(async () => (await fetch('/sw.js', { cache: 'no-store' })).headers.get('cache-control'))
    expect(sw).to.equal('no-cache')
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href')
      return href ? (await fetch(href)).json() : null
    })
    expect(manifest).to.include({ display: 'standalone', start_url: '/' })
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).to.include.members(['192x192', '512x512'])
    expect(manifest.icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).to.equal(true)
  })

  it('a newly installed worker deletes the caches of the versions before it', async () => {
    const page = await newPage(browser)
    await page.goto(url('/'))
    await hydrated(page)
    await controlled(page)
    const current = await page.evaluate(() => caches.keys())
    expect(current).to.have.length(1)
    // A cache left by an earlier release, then another worker script for the same scope (as a deploy's would be).
    await page.evaluate(async () => {
      await (await caches.open('datahub-earlier-release')).put('/', new Response('old'))
      await navigator.serviceWorker.register('/sw.js?next-release')
    })
    await page.waitForFunction(async () => !(await caches.has('datahub-earlier-release')), { timeout: 30_000 })
    expect(await page.evaluate(() => caches.keys())).to.deep.equal(current)
  })
})
