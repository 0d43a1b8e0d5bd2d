import { expect } from 'chai'
import { createRequire } from 'node:module'
import { newPage } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { startOutageApp } from '../helpers/outage-app.ts'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

describe("browser: the 'We'll be right back' page while the database is down", function () {
  const browser = browserSuite(this, 60_000, 'none')
  let outage: Awaited<ReturnType<typeof startOutageApp>>
  before(async () => {
    outage = await startOutageApp()
  })
  after(async () => {
    await outage?.close()
  })

  for (const theme of ['light', 'dark'] as const) {
    it(`reads at 360 px in ${theme} mode, passes axe, and its button is reached by keyboard`, async () => {
      const page = await newPage(browser)
      await page.setBypassCSP(true) // axe is injected as a script of the test's own
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }])
      const res = await page.goto(`${outage.base}/buy`)
      expect(res!.status()).to.equal(503)
      expect(await page.$eval('h1', (h) => h.textContent)).to.equal("We'll be right back")
      const layout = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        width: window.innerWidth,
        bg: getComputedStyle(document.body).backgroundColor
      }))
      expect(layout.scroll, 'no sideways scrolling').to.be.at.most(layout.width)
      // The page's own colours follow the visitor's theme.
      expect(layout.bg).to.equal(theme === 'dark' ? 'rgb(20, 22, 26)' : 'rgb(255, 255, 255)')
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Try again now')
      await page.addScriptTag({ path: AXE })
      const violations = await page.evaluate(async () =>
        (await (window as any).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })).violations.map((v: any) => v.id)
      )
      expect(violations).to.deep.equal([])
      await page.browserContext().close()
    })
  }
})
