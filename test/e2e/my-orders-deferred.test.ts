import { expect } from 'chai'
import { codeLate, hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

// My Orders' code comes after the buy page's first load (ADR 0044): it must still answer as it did when it was part of it.
describe("browser: My Orders, whose code comes after the page's, answers as before", function () {
  const browser = browserSuite(this, 90_000, 'once')

  it("renders the tab's form in the same commit as the tap that opens it, so it can be typed into at once", async () => {
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    // The first change React makes to the page after the tap either holds the lookup field or leaves the panel empty
    // for a while (a part still to load shows nothing): read at that change, not after a wait.
    const shown = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const seen = new MutationObserver(() => {
            seen.disconnect()
            resolve(document.getElementById('lookup-phone') !== null)
          })
          seen.observe(document.getElementById('main')!, { childList: true, subtree: true })
          ;(document.getElementById('tab-orders') as HTMLAnchorElement).click()
        })
    )
    expect(shown, "the lookup field in the tap's first change").to.equal(true)
    await page.type('#lookup-phone', '0209990000')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="orders-empty"]')
    await page.browserContext().close()
  })

  it('keeps a number typed into the lookup before the code came, on a page opened on My Orders', async () => {
    const page = await newPage(browser)
    // A slow phone: the page is shown, and its code comes two seconds later.
    await codeLate(page)
    await page.goto(url('/data-services?tab=orders'), { waitUntil: 'domcontentloaded' })
    await page.type('#lookup-phone', '0209990000')
    expect(await page.$('html[data-hydrated="true"]'), 'typed before hydration').to.equal(null)
    await hydrated(page)
    await page.click('form[role="search"] button[type="submit"]')
    // Looked up with the number typed (no orders for it), not refused as empty.
    await page.waitForSelector('[data-testid="orders-empty"]')
    expect(await page.$eval('#lookup-phone', (i) => (i as HTMLInputElement).value)).to.equal('0209990000')
    await page.browserContext().close()
  })
})
