import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'

// The webhook's signing secret on the agent profile: shown once when made, gone on the next visit,
// renewed with "New secret" (confirmed, since the old one stops working) and shown once again.
const waitText = (page: Page, text: string) => page.waitForFunction((t) => document.body.innerText.includes(t), {}, text)
const button = async (page: Page, label: string) => {
  const [b] = await page.$$(`xpath/.//button[normalize-space()="${label}"]`)
  if (!b) throw new Error(`no button "${label}"`)
  return b
}
const secretShown = async (page: Page) => {
  await page.waitForSelector('[data-testid=webhook-secret]')
  return page.$eval('[data-testid=webhook-secret]', (e) => (e as HTMLElement).innerText.trim())
}

describe('browser: the webhook signing secret', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('is shown once when the first URL is saved, never on reload, and once more after New secret', async () => {
    await factories.createAgent({ email: 'hook.agent@example.com', password: 'Secret#123' })
    const page = await newPage(browser, { width: 360 })
    await login(page, 'hook.agent@example.com', 'Secret#123')
    await page.goto(url('/agent/profile'))
    await hydrated(page)
    expect(await page.$('[data-testid=webhook-secret]')).to.equal(null)

    await page.type('#webhook-url', 'https://hooks.example.com/datahub')
    await button(page, 'Save webhook').then((b) => b.click())
    const first = await secretShown(page)
    expect(first).to.match(/^whsec_/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).to.equal(true)

    await page.reload()
    await hydrated(page)
    await waitText(page, 'A signing secret is set')
    expect(await page.$eval('#webhook-url', (e) => (e as HTMLInputElement).value)).to.equal('https://hooks.example.com/datahub')
    expect(await bodyText(page)).not.to.include(first)

    page.once('dialog', (d) => void d.accept())
    await button(page, 'New secret').then((b) => b.click())
    const second = await secretShown(page)
    expect(second)
      .to.match(/^whsec_/)
      .and.not.equal(first)
    await waitText(page, 'shown only once')
  })
})
