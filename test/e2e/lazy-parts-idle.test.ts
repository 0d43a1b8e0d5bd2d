import { expect } from 'chai'
import type { Browser, HTTPRequest, Page } from 'puppeteer-core'
import { hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

declare global {
  interface Window {
    /** The page's idle callback, held by the test until it calls it. */
    heldIdle?: () => void
  }
}

/**
 * A page whose browser is never idle until the test says so: requestIdleCallback keeps its callback for the test.
 * Every script the page fetches is noted with its text, to tell which of them hold My Orders.
 */
async function pageHeldBusy(browser: Browser) {
  const page = await newPage(browser)
  await page.evaluateOnNewDocument(() => {
    window.requestIdleCallback = (cb: IdleRequestCallback) => {
      window.heldIdle = () => cb({ didTimeout: false, timeRemaining: () => 50 })
      return 1
    }
  })
  const scripts: Promise<string>[] = []
  page.on('response', (r) => {
    if (r.url().endsWith('.js')) scripts.push(r.text().catch(() => ''))
  })
  // My Orders' chunk is the one that renders the lookup field.
  const myOrdersFetched = async () => (await Promise.all(scripts)).some((text) => text.includes('lookup-phone'))
  return { page, myOrdersFetched }
}

/** Waits until React has hydrated the element of that id: it keeps its fiber on each element it took over. */
const reactHolds = (page: Page, id: string) =>
  page.waitForFunction(
    (id) => {
      const el = document.getElementById(id)
      return el !== null && Object.keys(el).some((k) => k.startsWith('__reactFiber$'))
    },
    {},
    id
  )

// The code of the buy page's parts hydrated later (My Orders, the orders saved on the device) comes once the page has
// hydrated and the browser is idle, or at the visitor's first touch (ADR 0044): not while the page hydrates.
describe("browser: the buy page's later parts load when the browser is idle or at the first touch", function () {
  const browser = browserSuite(this, 90_000, 'once')

  it('fetches no My Orders code while the browser has not been idle, and fetches it once it is', async () => {
    const { page, myOrdersFetched } = await pageHeldBusy(browser)
    await page.goto(url('/data-services'))
    await reactHolds(page, 'recipient')
    await page.waitForNetworkIdle({ idleTime: 300 })
    expect(await myOrdersFetched(), 'My Orders fetched before the browser was idle').to.equal(false)
    expect(await page.$('html[data-hydrated="true"]'), 'marked hydrated without its later parts').to.equal(null)
    await page.evaluate(() => window.heldIdle!())
    await hydrated(page)
    expect(await myOrdersFetched(), 'My Orders fetched once idle').to.equal(true)
    await page.browserContext().close()
  })

  it('fetches it at the first tap on the My Orders tab, never idle, and the lookup answers', async () => {
    const { page, myOrdersFetched } = await pageHeldBusy(browser)
    await page.goto(url('/data-services'))
    await reactHolds(page, 'recipient')
    await page.click('#tab-orders')
    await page.waitForSelector('#lookup-phone')
    await hydrated(page)
    expect(await myOrdersFetched()).to.equal(true)
    await page.type('#lookup-phone', '0209990000')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="orders-empty"]')
    await page.browserContext().close()
  })

  it('on a page opened on My Orders, keeps its HTML until the first key and looks up the number typed before its code came', async () => {
    const { page, myOrdersFetched } = await pageHeldBusy(browser)
    // A slow network once the page has hydrated: the scripts asked for from then on are held until the test lets them go.
    const held: HTTPRequest[] = []
    let holding = false
    await page.setRequestInterception(true)
    page.on('request', (r) => void (holding && r.url().endsWith('.js') ? held.push(r) : r.continue()))
    await page.goto(url('/data-services?tab=orders'))
    await reactHolds(page, 'tab-orders')
    await page.waitForNetworkIdle({ idleTime: 300 })
    expect(await myOrdersFetched(), 'fetched before idle or a touch').to.equal(false)
    holding = true
    // Typed after the page hydrated, into the part's HTML: the first key is the first touch, which asks for the code.
    await page.type('#lookup-phone', '0209990000')
    await page.waitForFunction(() => document.querySelector('[data-hydrated]') === null)
    expect(held.length, 'code asked for at the first key').to.be.above(0)
    holding = false
    for (const r of held) await r.continue()
    await hydrated(page)
    // React is told what was typed before the part hydrated: looked up with that number, not refused as empty.
    await page.click('form[role="search"] button[type="submit"]')
    await page.waitForSelector('[data-testid="orders-empty"]')
    expect(await page.$eval('#lookup-phone', (i) => (i as HTMLInputElement).value)).to.equal('0209990000')
    await page.browserContext().close()
  })
})
