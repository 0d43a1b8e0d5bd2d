import { expect } from 'chai'
import { fitsPhone, hydrated, login, newPage, tap, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { app } from '../helpers/server.ts'

// In the browser: an agent adds a payout number, withdraws earnings, and sees the simulated
// transfer succeed in the history; the admin sees it on Payouts.

describe('browser: agent payouts', function () {
  const browser = browserSuite(this, 180_000, 'each')

  it('adds a payout number, requests a withdrawal and sees it succeed (simulator) in the history, on a 360 px phone', async () => {
    await app().services.settings.update({ payoutMinimum: 5, payoutFee: 0.5, payoutApprovalAbove: 500 }, {})
    app().services.payouts.simulatorControl({ mode: 'succeed', delayMs: 0 }, {})
    const a = await factories.createAgent({ phone: '0244556677', email: 'payout.agent@example.com', password: 'Secret#123' })
    await app().db.sequelize.transaction((t) =>
      app().services.earnings.post({ agentId: a.agent.id, type: 'ADJUSTMENT', amountPesewas: 3000, reason: 'margins' }, t)
    )
    const page = await newPage(browser, { width: 360 })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(String(e)))
    await login(page, 'payout.agent@example.com', 'Secret#123')
    await page.goto(url('/agent/payouts'))
    await hydrated(page)
    expect(await page.$eval('[data-testid=earnings-available]', (e) => e.textContent)).to.equal('GH₵30.00')
    expect(await page.$eval('[data-testid=withdraw-submit]', (e) => (e as HTMLButtonElement).disabled)).to.equal(true)

    await page.select('#pn-network', 'MTN')
    await page.type('#pn-phone', '0551234567')
    await page.type('#pn-name', 'Kwame Asante')
    await tap(page, '[data-testid=payout-number-save]')
    await page.waitForSelector('[data-testid=payout-number]')
    expect(await page.$eval('[data-testid=payout-number]', (e) => (e as HTMLElement).innerText))
      .to.include('0551234567')
      .and.include('Verified')
      .and.include('Kwame Asante')

    await page.type('#wd-amount', '20')
    expect(await page.$eval('#wd-help', (e) => e.textContent)).to.include('You receive GH₵20.00; GH₵20.50 is taken from your earnings.')
    await tap(page, '[data-testid=withdraw-submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=payout-history] tbody tr [data-status]') !== null)
    expect(await page.$eval('[data-testid=earnings-available]', (e) => e.textContent)).to.equal('GH₵9.50')
    // The queue sends it (tests run jobs by hand); the page reads the status again by itself.
    await app().services.queue.drain()
    await page.waitForFunction(() => document.querySelector('[data-testid=payout-history] tbody tr [data-status]')?.getAttribute('data-status') === 'SUCCESS', {
      timeout: 15_000
    })
    const row = await page.$eval('[data-testid=payout-history] tbody tr', (e) => (e as HTMLElement).innerText)
    expect(row).to.include('GH₵20.00').and.include('Paid').and.include('0551234567')
    expect(await fitsPhone(page)).to.equal(true)

    // The admin sees it under Success.
    const admin = await browser.createBrowserContext()
    const ap = await admin.newPage()
    ap.on('pageerror', (e) => errors.push(String(e)))
    await login(ap, 'admin@test.local', 'admin-pass-123')
    await ap.goto(url('/admin/payouts'))
    await hydrated(ap)
    await ap.$eval('#tab-SUCCESS', (e) => (e as HTMLElement).click())
    await ap.waitForFunction(() => document.querySelector('[data-testid=admin-payouts]')?.textContent?.includes('0551234567'))
    expect(await ap.$eval('[data-testid=payouts-csv]', (e) => e.getAttribute('href'))).to.equal('/api/admin/payouts/export.csv?status=SUCCESS')
    await admin.close()
    expect(errors).to.deep.equal([])
  })
})
