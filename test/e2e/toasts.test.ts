import { expect } from 'chai'
import { hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { ADMIN } from '../helpers/server.ts'

describe('browser: toasts', function () {
  const browser = browserSuite(this, 60_000, 'none')

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
