import { expect } from 'chai'
import type { Browser, Page } from 'puppeteer-core'
import { closeBrowser, hydrated, newPage, url, useBrowser } from '../helpers/browser.ts'
import { resetDb } from '../helpers/server.ts'

const text = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent?.trim() ?? '')
const proceed = (page: Page) => page.$('xpath///button[@type="submit" and contains(., "Proceed to Payment")]')

describe('browser: the buy form says why it cannot go on, and checks the number', function () {
  this.timeout(60_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  beforeEach(resetDb)
  after(closeBrowser)

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
})
