import { expect } from 'chai'
import type { Browser } from 'puppeteer-core'
import { closeBrowser, hydrated, newPage, url, useBrowser } from '../helpers/browser.ts'
import { ADMIN } from '../helpers/server.ts'

describe('browser: toasts', function () {
  this.timeout(60_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  after(closeBrowser)

  it("shows 'Signed in' on the page the login leads to, once", async () => {
    const page = await newPage(browser)
    await page.goto(url('/login'))
    await hydrated(page)
    await page.type('#email', ADMIN.email)
    await page.type('#password', ADMIN.password)
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')])
    await hydrated(page)
    expect(new URL(page.url()).pathname).to.equal('/admin/overview')
    const toast = await page.waitForSelector('[data-toast="success"]')
    expect(await toast!.evaluate((el) => el.textContent)).to.include('Signed in')
    await page.reload()
    await hydrated(page)
    expect(await page.$('[data-toast="success"]')).to.equal(null)
    await page.browserContext().close()
  })
})
