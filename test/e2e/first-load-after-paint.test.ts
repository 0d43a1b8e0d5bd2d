import { expect } from 'chai'
import { codeLate, hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

/** When the browser first painted text, and when it started fetching each script (ms since the start). */
interface Seen {
  paintAt: number
  scripts: { name: string; startAt: number }[]
}

// A page's JavaScript is fetched only after its first contentful paint (renderer/client-start.ts, ADR 0044): the phone
// shows the page without waiting for ~100 KB of code, and the page still hydrates and answers.
describe('browser: a page is painted before its scripts are fetched, then hydrates', function () {
  const browser = browserSuite(this, 90_000, 'once')

  for (const path of ['/data-services', '/', '/login']) {
    it(`${path}: every script starts after the first contentful paint, and the page hydrates`, async () => {
      const page = await newPage(browser)
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      await page.goto(url(path), { waitUntil: 'load' })
      await hydrated(page)
      const seen: Seen = await page.evaluate(() => ({
        paintAt: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
        scripts: performance
          .getEntriesByType('resource')
          .filter((e) => /\/assets\/.*\.js$/.test(e.name))
          .map((e) => ({ name: e.name, startAt: e.startTime }))
      }))
      expect(seen.scripts.length).to.be.above(2)
      for (const s of seen.scripts) expect(s.startAt, `${s.name} started at ${s.startAt} ms, first paint at ${seen.paintAt} ms`).to.be.at.least(seen.paintAt)
      // Vike's data came along with its entry: the page is whole, the template gone.
      expect(await page.$('#client-assets')).to.equal(null)
      expect(await page.$('#vike_pageContext')).to.not.equal(null)
      expect(errors).to.deep.equal([])
      await page.browserContext().close()
    })
  }

  it('a package picked and a number typed before the code came are still chosen once the form hydrates', async () => {
    const page = await newPage(browser)
    // A slow phone: the page is shown, and its code comes two seconds later.
    await codeLate(page)
    await page.goto(url('/data-services'), { waitUntil: 'domcontentloaded' })
    const second = (await page.$$('input[name="package"]'))[1]!
    await second.click()
    await page.type('#recipient', '0241234567')
    expect(await page.$('html[data-hydrated="true"]'), 'chosen before hydration').to.equal(null)
    const chosenId = await second.evaluate((i) => (i as HTMLInputElement).value)
    await hydrated(page)
    // A render after hydration puts the form's state in its inputs: the choice survives only if the state took it.
    await page.type('#recipient', '8')
    await page.keyboard.press('Backspace')
    expect(await page.$eval('input[name="package"]:checked', (i) => (i as HTMLInputElement).value)).to.equal(chosenId)
    expect(await page.$eval('#recipient', (i) => (i as HTMLInputElement).value)).to.equal('0241234567')
    const button = await page.$('xpath///button[@type="submit" and contains(., "Proceed to Payment")]')
    expect(await button!.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(false)
    await page.browserContext().close()
  })

  it('the buy form answers once hydrated: a package and a number enable Proceed to Payment', async () => {
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    await page.click('input[name="package"]')
    await page.type('#recipient', '0241234567')
    const button = await page.$('xpath///button[@type="submit" and contains(., "Proceed to Payment")]')
    expect(await button!.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(false)
    await page.browserContext().close()
  })
})
