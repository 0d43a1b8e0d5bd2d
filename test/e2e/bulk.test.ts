import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { axe, describeViolations } from '../helpers/axe.ts'
import { fitsPhone, hydrated, login, newPage, tap, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'

// Bulk orders in the browser at 360 px: paste, fix a refused line in place, pay from the wallet, watch them deliver.
const enabled = (page: Page, selector: string) =>
  page.waitForFunction((s) => (document.querySelector(s) as HTMLButtonElement | null)?.disabled === false, {}, selector)

describe('browser: bulk orders', function () {
  const browser = browserSuite(this, 180_000, 'each')
  beforeEach(() => app().services.delivery.simulatorControl({ mode: 'deliver' }))

  it('pastes 3 lines, fixes the refused one, pays from the wallet and sees them deliver without a reload', async () => {
    await app().db.models.Package.destroy({ where: {} })
    await factories.createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    app().services.packages.invalidate()
    const a = await factories.createAgent({ email: 'bulk.agent@example.com', password: 'Secret#123' })
    const admin = await adminClient()
    await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 20, direction: 'CREDIT', reason: 'Float' })
    const page = await newPage(browser, { width: 360 })
    await page.setBypassCSP(true) // axe is injected as a script of the test's own
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await login(page, 'bulk.agent@example.com', 'Secret#123')
    await hydrated(page)
    // The nav leads there.
    expect(await page.$eval('a[href="/agent/bulk"]', (e) => e.textContent)).to.equal('Bulk Order')
    await page.goto(url('/agent/bulk'))
    await hydrated(page)
    expect(await fitsPhone(page)).to.equal(true)

    await page.type('#bulk-text', '0241234567 1GB\n0241234568 1GB\n02412 1GB')
    await enabled(page, '[data-testid=bulk-check]')
    await tap(page, '[data-testid=bulk-check]')
    await page.waitForSelector('[data-testid=bulk-preview]')
    expect(await page.$$eval('[data-testid=line-error]', (els) => els.map((e) => e.textContent))).to.deep.equal([
      'Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567'
    ])
    expect(await page.$eval('[data-testid=bulk-pay]', (e) => (e as HTMLButtonElement).disabled)).to.equal(true)
    // A screen reader's checklist holds with the preview open, in the dark theme at 360 px.
    expect(describeViolations(await axe(page))).to.equal('')

    // Fixed in place, checked again: all three pass and the total is theirs.
    const line3 = 'input[aria-label="Line 3"]'
    await page.$eval(line3, (e) => (e as HTMLInputElement).select())
    await page.type(line3, '0241234569,MTN,1GB')
    await tap(page, '[data-testid=bulk-recheck]')
    await page.waitForFunction(
      () => !document.querySelector('[data-testid=line-error]') && document.querySelector('[data-testid=bulk-total]')?.textContent === 'GH₵13.50'
    )
    expect(await fitsPhone(page)).to.equal(true)
    await enabled(page, '[data-testid=bulk-pay]')
    await Promise.all([page.waitForNavigation(), tap(page, '[data-testid=bulk-pay]')])
    await hydrated(page)
    expect(page.url()).to.match(/\/agent\/bulk\/\d+$/)
    expect(await app().db.models.Order.count({ where: { agentId: a.agent.id } })).to.equal(3)

    // The vendor delivers; the page's poll shows it.
    await app().services.queue.drain()
    await page.waitForFunction(() => document.querySelector('[data-count=delivered]')?.textContent === '3', { timeout: 20_000 })
    expect(await page.$$eval('tr[data-status=DELIVERED]', (rows) => rows.length)).to.equal(3)
    expect(describeViolations(await axe(page))).to.equal('')
    expect(await fitsPhone(page)).to.equal(true)
  })

  it('pays a batch by mobile money: awaiting payment, approved on the simulator phone, then the lines appear without a reload', async () => {
    await app().db.models.Package.destroy({ where: {} })
    await factories.createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    app().services.packages.invalidate()
    await factories.createAgent({ email: 'bulk.momo@example.com', password: 'Secret#123' })
    const page = await newPage(browser, { width: 360 })
    await page.setBypassCSP(true)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await login(page, 'bulk.momo@example.com', 'Secret#123')
    await page.goto(url('/agent/bulk'))
    await hydrated(page)
    await page.type('#bulk-text', '0241234567 1GB\n0241234568 1GB')
    await tap(page, '[data-testid=bulk-check]')
    await page.waitForSelector('[data-testid=bulk-preview]')
    // An empty wallet blocks the wallet, not mobile money.
    expect(await page.$eval('[data-testid=bulk-pay]', (e) => (e as HTMLButtonElement).disabled)).to.equal(true)
    await tap(page, '[data-testid=bulk-pay-momo]')
    const payer = '#bulk-payer-phone'
    await page.$eval(payer, (e) => (e as HTMLInputElement).select())
    await page.type(payer, '0245550000')
    await enabled(page, '[data-testid=bulk-pay]')
    expect(await page.$eval('[data-testid=bulk-pay]', (e) => e.textContent)).to.equal('Pay GH₵9.00 by mobile money')
    expect(describeViolations(await axe(page))).to.equal('')
    await Promise.all([page.waitForNavigation(), tap(page, '[data-testid=bulk-pay]')])
    await hydrated(page)
    await page.waitForSelector('[data-testid=bulk-awaiting]')
    expect(await page.$eval('[data-testid=bulk-awaiting]', (e) => e.textContent)).to.include('Awaiting payment')
    expect(await app().db.models.Order.count()).to.equal(0)
    expect(describeViolations(await axe(page))).to.equal('')
    expect(await fitsPhone(page)).to.equal(true)

    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0245550000'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    const approve = await phone.$$eval('button', (bs) => bs.findIndex((b) => b.textContent?.trim() === 'Approve'))
    await phone.$$eval('button', (bs, i) => (bs[i as number] as HTMLButtonElement).click(), approve)
    await phone.waitForSelector('[data-testid="no-prompts"]')
    await phone.close()

    // The page's poll sees the batch paid and shows its lines.
    await page.waitForFunction(() => !document.querySelector('[data-testid=bulk-awaiting]') && document.querySelectorAll('tr[data-status]').length === 2, {
      timeout: 20_000
    })
    expect(await app().db.models.Order.count({ where: { paymentStatus: 'SUCCESS' } })).to.equal(2)
    await page.goto(url('/agent/bulk'))
    await hydrated(page)
    expect(await page.$eval('li a[href^="/agent/bulk/"]', (e) => e.parentElement?.textContent)).to.match(/2 lines, GH₵9\.00, \d delivered/)
  })
})
