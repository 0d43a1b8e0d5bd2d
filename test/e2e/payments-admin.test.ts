import { expect } from 'chai'
import type { Browser } from 'puppeteer-core'
import { closeBrowser, hydrated, login, newPage, url, useBrowser } from '../helpers/browser.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

// Issue 12: the admin refunds a paid, undelivered order from the orders page; a refused refund shows on
// "Payments needing attention" with its count on the overview, and Retry refund gives the money back.
describe('browser: admin refund and payments needing attention (simulator)', function () {
  this.timeout(90_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  after(closeBrowser)
  beforeEach(resetDb)

  it('Refund on the orders page (reason required), listed when refused, retried from the attention page', async () => {
    // Manual delivery: the paid order waits for the admin (an order being delivered is not refundable).
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    // Payer number ending 0002: the simulator refuses refunds (docs/payments.md).
    const placed = await new Client().post('/api/orders', { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241230002', payerNetwork: 'MTN' })
    const tid = placed.body.payment.transactionId
    await app().services.simulator.approve(tid)

    const page = await newPage(browser)
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/orders'))
    await hydrated(page)
    await page.waitForSelector('[data-testid="refund-open"]')
    await page.click('[data-testid="refund-open"]')
    await page.click('[data-testid="refund-submit"]')
    await page.waitForFunction(() => /Please give a reason/.test(document.querySelector('.modal [role="alert"]')?.textContent ?? ''))
    await page.type('textarea[id^="refund-reason-"]', 'Bundle out of stock')
    await page.click('[data-testid="refund-submit"]')
    await page.waitForFunction(() => !document.querySelector('.modal.is-active') && document.body.innerText.includes('Refunded'))
    expect(await page.$('[data-testid="refund-open"]')).to.equal(null)

    await app().services.queue.drain() // the simulator refuses this refund
    await page.goto(url('/admin/overview'))
    await hydrated(page)
    expect(await page.$eval('[data-testid="attention-banner"]', (e) => e.textContent)).to.equal('1 payment needs attention')
    await page.click('[data-testid="attention-banner"] a')
    await page.waitForSelector('[data-testid="attention-item"][data-kind="refund_failed"]')
    await hydrated(page)
    const [retry] = await page.$$('xpath/.//button[contains(., "Retry refund")]')
    await retry!.click()
    await page.waitForFunction(() => document.body.innerText.includes('Refund sent again'))
    const [p] = await app().db.sequelize.query<{ status: string }>(`SELECT status FROM payments WHERE transaction_id = '${tid}'`, { type: 'SELECT' as never })
    expect(p!.status).to.equal('REFUND_PENDING')
  })
})
