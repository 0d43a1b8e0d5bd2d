import { expect } from 'chai'
import type { Browser } from 'puppeteer-core'
import { closeBrowser, hydrated, newPage, url, useBrowser } from '../helpers/browser.ts'
import { resetDb } from '../helpers/server.ts'

interface Probe {
  slices: number
  slicesAtFirstCommit?: number
}

// React's first pass over the page is what a phone's main thread spent longest on after evaluating the code
// (ADR 0044): hydrating the root in a transition lets React yield to the browser every few milliseconds.
describe('browser: the buy page hydrates its root in slices', function () {
  this.timeout(60_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  beforeEach(resetDb)
  after(closeBrowser)

  it('React yields to the browser before it commits the first pass, and the form then answers', async () => {
    const page = await newPage(browser)
    // A phone's slower CPU, as Lighthouse's mobile run assumes: the first pass then outlasts one slice of React's.
    await (await page.createCDPSession()).send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.evaluateOnNewDocument(() => {
      const probe: Probe = { slices: 0 }
      const w = window as unknown as Record<string, unknown>
      w.hydrationProbe = probe
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
    const probe = await page.evaluate(() => (window as unknown as { hydrationProbe: Probe }).hydrationProbe)
    // Rendered in the default lane, the root's first pass is one scheduler task that also commits.
    expect(probe.slicesAtFirstCommit, JSON.stringify(probe)).to.be.above(1)
    await page.click('input[name="package"]')
    expect(await page.$eval('#proceed-why', (e) => e.textContent?.trim())).to.equal('Enter recipient number')
  })
})
