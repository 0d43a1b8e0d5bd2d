import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'

const text = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent?.trim() ?? '')
const selectedTab = (page: Page) => page.$eval('[aria-label="Network"] [aria-selected="true"]', (e) => e.textContent)
const visible = (page: Page, sel: string) => page.$eval(sel, (e) => (e as HTMLElement).offsetParent !== null)
const proceed = (page: Page) => page.$('xpath///button[@type="submit" and contains(., "Proceed to Payment")]')

/** What the page saw while hydrating: React's scheduler tasks, and how many had run at its first commit. */
interface HydrationProbe {
  slices: number
  slicesAtFirstCommit?: number
}

describe('browser: the buy form says why it cannot go on, and checks the number', function () {
  const browser = browserSuite(this, 60_000, 'each')

  it("tells why 'Proceed to Payment' is disabled, with the spec's messages, until the order can go on", async () => {
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    expect(await text(page, '#proceed-why')).to.equal('Please select package and enter recipient number')
    const button = (await proceed(page))!
    expect(await button.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(true)
    expect(await button.evaluate((b) => b.getAttribute('aria-describedby'))).to.equal('proceed-why')
    await page.click('input[name="package"]')
    expect(await text(page, '#proceed-why')).to.equal('Enter recipient number')
    await page.type('#recipient', '0241')
    expect(await text(page, '#proceed-why')).to.equal('Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567')
    await page.type('#recipient', '234567')
    expect(await page.$('#proceed-why')).to.equal(null)
    expect(await button.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(false)
    await page.browserContext().close()
  })

  it('warns, without blocking, when the number belongs to another network than the one chosen', async () => {
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    await page.click('input[name="package"]') // MTN is chosen first
    await page.type('#recipient', '0201234567') // a Telecel prefix
    expect(await text(page, '#recipient-help')).to.equal('This looks like a Telecel number, not MTN. Check it, unless it moved networks.')
    expect(await (await proceed(page))!.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(false)
    await page.browserContext().close()
  })

  // React's first pass over the page was the phone's longest task after evaluating the code (ADR 0044):
  // hydrating the root in a transition lets React yield to the browser every few milliseconds.
  it('React yields to the browser before it commits the first pass, and the form then answers', async () => {
    const page = await newPage(browser)
    // A phone's slower CPU, as Lighthouse's mobile run assumes: the first pass then outlasts one slice of React's.
    await (await page.createCDPSession()).send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.evaluateOnNewDocument(() => {
      const probe: HydrationProbe = { slices: 0 }
      const w = window as unknown as Record<string, unknown>
      w.hydrationHydrationProbe = probe
      // React's scheduler runs each slice of work in a MessageChannel task: count them.
      const native = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!
      Object.defineProperty(MessagePort.prototype, 'onmessage', {
        configurable: true,
        get() {
          return native.get!.call(this)
        },
        set(handler: ((e: MessageEvent) => void) | null) {
          native.set!.call(
            this,
            handler &&
              ((e: MessageEvent) => {
                probe.slices++
                handler(e)
              })
          )
        }
      })
      // react-dom tells the DevTools hook of every commit, in production builds too.
      w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        isDisabled: false,
        inject: () => 1,
        checkDCE: () => undefined,
        onScheduleFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        onCommitFiberRoot: () => {
          probe.slicesAtFirstCommit ??= probe.slices
        }
      }
    })
    await page.goto(url('/data-services'))
    await hydrated(page)
    const probe = await page.evaluate(() => (window as unknown as { hydrationHydrationProbe: HydrationProbe }).hydrationHydrationProbe)
    // Rendered in the default lane, the root's first pass is one scheduler task that also commits.
    expect(probe.slicesAtFirstCommit, JSON.stringify(probe)).to.be.above(1)
    await page.click('input[name="package"]')
    expect(await page.$eval('#proceed-why', (e) => e.textContent?.trim())).to.equal('Enter recipient number')
  })
})

describe('browser: an agent shop opens on the network it sells', function () {
  const browser = browserSuite(this, 90_000, 'once')

  it('a Telecel and AirtelTigo shop opens on Telecel; the arrow keys switch tabs; without JavaScript the prices show and the tabs are links', async () => {
    const pkg = async (network: string) => (await app().db.models.Package.findOne({ where: { network, sizeMb: 1024 } }))!.get('id') as number
    const telecel = await pkg('TELECEL')
    const airteltigo = await pkg('AIRTELTIGO')
    const a = await createAgent()
    const c = new Client()
    await c.login(a.user.email, a.password)
    expect((await c.put('/api/shops/mine', { slug: 'adwoa-data', name: 'Adwoa Data', description: '', whatsapp: '', accent: '#1565c0' })).status).to.equal(200)
    expect(
      (
        await c.put('/api/shops/mine/prices', {
          prices: [
            { packageId: telecel, price: 4.9 },
            { packageId: airteltigo, price: 5.3 }
          ]
        })
      ).status
    ).to.equal(200)

    const page = await newPage(browser)
    await page.goto(url('/shop/adwoa-data'))
    await hydrated(page)
    expect(await selectedTab(page)).to.equal('Telecel')
    expect(await page.$$eval('[aria-label="Network"] [role="tab"]', (tabs) => tabs.map((t) => t.textContent))).to.deep.equal(['Telecel', 'AirtelTigo'])
    expect(await visible(page, `[data-testid="package-${telecel}"]`)).to.equal(true)
    expect(await visible(page, `[data-testid="package-${airteltigo}"]`)).to.equal(false)
    expect(await bodyText(page))
      .to.include('GH₵4.90')
      .and.not.include('No packages available for this network.')

    // ARIA tabs: one Tab stop, the arrows select and focus the next tab, Tab then enters its packages.
    await page.focus('#tab-TELECEL')
    await page.keyboard.press('ArrowRight')
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('tab-AIRTELTIGO')
    expect(await selectedTab(page)).to.equal('AirtelTigo')
    expect(await visible(page, `[data-testid="package-${airteltigo}"]`)).to.equal(true)
    expect(await visible(page, `[data-testid="package-${telecel}"]`)).to.equal(false)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).to.equal(String(airteltigo))
    await page.keyboard.press('Space')
    await page.waitForSelector(`[data-testid="package-${airteltigo}"].is-selected`)
    await page.browserContext().close()

    const plain = await newPage(browser)
    await plain.setJavaScriptEnabled(false)
    await plain.goto(url('/shop/adwoa-data'))
    expect(await bodyText(plain))
      .to.include('GH₵4.90')
      .and.not.include('GH₵5.30')
    await Promise.all([plain.waitForNavigation(), plain.click('#tab-AIRTELTIGO')])
    expect(plain.url()).to.match(/\/shop\/adwoa-data\?network=AIRTELTIGO$/)
    expect(await bodyText(plain))
      .to.include('GH₵5.30')
      .and.not.include('GH₵4.90')
    await plain.browserContext().close()
  })
})
