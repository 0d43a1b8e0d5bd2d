import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { codeLate, hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

// The page is shown before its code arrives (ADR 0044), so on a slow phone a visitor can type before the form is
// hydrated. What was typed must still be there after hydration, also once another field makes the form render again.
describe('browser: what is typed before the code arrives is kept once the form hydrates', function () {
  const browser = browserSuite(this, 90_000, 'once')

  /** A slow phone: the page is shown, and its code comes two seconds later. */
  async function slowPage(path: string): Promise<Page> {
    const page = await newPage(browser)
    await codeLate(page)
    await page.goto(url(path), { waitUntil: 'domcontentloaded' })
    return page
  }

  it('/login: an email typed and "Remember me" ticked before hydration survive typing the password after it', async () => {
    const page = await slowPage('/login')
    await page.type('#email', 'early@example.com')
    await page.click('input[type="checkbox"]')
    expect(await page.$('html[data-hydrated="true"]'), 'typed before hydration').to.equal(null)
    await hydrated(page)
    await page.type('#password', 'secret-pass')
    expect(await page.$eval('#email', (i) => (i as HTMLInputElement).value)).to.equal('early@example.com')
    expect(await page.$eval('#password', (i) => (i as HTMLInputElement).value)).to.equal('secret-pass')
    expect(await page.$eval('input[type="checkbox"]', (i) => (i as HTMLInputElement).checked)).to.equal(true)
    await page.browserContext().close()
  })

  it('/afa: a name typed before hydration survives typing the phone number after it', async () => {
    const page = await slowPage('/afa')
    await page.type('#afa-name', 'Ama Early')
    expect(await page.$('html[data-hydrated="true"]'), 'typed before hydration').to.equal(null)
    await hydrated(page)
    await page.type('#afa-phone', '0241234567')
    expect(await page.$eval('#afa-name', (i) => (i as HTMLInputElement).value)).to.equal('Ama Early')
    await page.browserContext().close()
  })
})
