import { expect } from 'chai'
import type { Browser, Page } from 'puppeteer-core'
import { QueryTypes } from 'sequelize'
import { closeBrowser, hydrated, login, newPage, url, useBrowser } from '../helpers/browser.ts'
import { createOrder } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

const cells = (page: Page, table: string) =>
  page.$$eval(`[data-testid="${table}"] tbody tr`, (rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim())))

describe('browser: the overview per channel and checker sales at 360 px', function () {
  this.timeout(120_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  after(closeBrowser)
  beforeEach(async () => {
    await resetDb()
    app().services.adminStats.invalidate() // overview figures are cached per instance
  })

  it('shows orders and revenue per channel and cards sold per product, follows the range picker and fits a phone', async () => {
    await createOrder({ channel: 'ussd', paymentStatus: 'SUCCESS', amountPesewas: 450 })
    await createOrder({ channel: 'whatsapp', paymentStatus: 'SUCCESS', amountPesewas: 1200, createdAt: new Date(Date.now() - 10 * 86_400_000) })
    const productId = await checkerWithStock(await adminClient(), 3)
    const p = await app().services.vouchers.buy({ productId, quantity: 2, payerPhone: '0245000011', payerNetwork: 'MTN' }, { ip: '10.2.0.1' })
    await app().services.payments.settle(p.transactionId, { status: 'SUCCESS', message: 'Approved', amountPesewas: 4000, currency: 'GHS' })
    await app().db.sequelize.query(`UPDATE voucher_cards SET sold_at = now() - interval '10 days' WHERE payment_transaction_id = :tid`, { replacements: { tid: p.transactionId }, type: QueryTypes.UPDATE })

    const page = await newPage(browser, { width: 360 })
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/overview'))
    await hydrated(page)
    expect(await cells(page, 'channel-sales')).to.deep.equal([
      ['Web', '0', 'GH₵0.00'],
      ['USSD', '1', 'GH₵4.50'],
      ['WhatsApp', '0', 'GH₵0.00'],
      ['API', '0', 'GH₵0.00'],
    ])
    expect(await page.$('[data-testid="checker-sales"]')).to.equal(null)
    expect(await page.evaluate(() => document.body.innerText)).to.include('No checker cards sold in this range.')

    await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent === '30 days')!.click())
    await page.waitForFunction(() => document.querySelector('button[aria-pressed="true"]')?.textContent === '30 days' && !document.querySelector('.is-loading') && document.querySelector('[data-testid="checker-sales"]'))
    expect(await cells(page, 'checker-sales')).to.deep.equal([['BECE checker', '2', 'GH₵40.00']])
    expect((await cells(page, 'channel-sales'))[2]).to.deep.equal(['WhatsApp', '1', 'GH₵12.00'])
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 360 px').to.be.at.most(360)
    await page.browserContext().close()
  })
})
