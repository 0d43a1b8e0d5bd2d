import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { downloads } from '../helpers/downloads.ts'
import { createAfaRegistration, createAgent, createOrder } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN, app } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

const sql = <T extends object = any>(q: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(q, { replacements, type: QueryTypes.SELECT }) as unknown as Promise<T[]>

const cells = (page: Page, table: string) =>
  page.$$eval(`[data-testid="${table}"] tbody tr`, (rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim())))
const rowCount = (page: Page, n: number) =>
  page.waitForFunction((k) => document.querySelectorAll('tr[data-order-id]').length === k && !document.querySelector('[aria-busy="true"]'), {}, n)

async function clickButton(page: Page, text: string) {
  await page.waitForFunction((t) => [...document.querySelectorAll('button')].some((b) => b.innerText.trim() === t && !b.disabled), {}, text)
  await page.evaluate((t) => [...document.querySelectorAll('button')].find((b) => b.innerText.trim() === t)!.click(), text)
}

describe('browser: back office A (orders, export, AFA, overview)', function () {
  const browser = browserSuite(this, 120_000, 'each')
  beforeEach(() => app().services.adminStats.invalidate()) // overview figures are cached per instance

  it('an admin filters orders, marks one delivered, exports the CSV and finds them in the history', async () => {
    const { user, agent } = await createAgent({ name: 'Kofi Bundles', phone: '0245550000', approved: false })
    const mtnAgent = await createOrder({
      network: 'MTN',
      paymentStatus: 'SUCCESS',
      recipientNumber: '0241112222',
      userId: user.id,
      agentId: agent.id,
      amountPesewas: 450
    })
    const mtnDirect = await createOrder({ network: 'MTN', paymentStatus: 'SUCCESS', recipientNumber: '0543334444' })
    const telecel = await createOrder({ network: 'TELECEL', paymentStatus: 'SUCCESS', recipientNumber: '0205556666', dataSizeMb: 2048 })
    const unpaid = await createOrder({ network: 'AIRTELTIGO', paymentStatus: 'PENDING', recipientNumber: '0267778888' })

    const page = await newPage(browser, { width: 360 })
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/orders'))
    await hydrated(page)
    const text = await bodyText(page)
    for (const t of [
      'Active Orders',
      'Show Exported History',
      'Export & Clear Orders',
      'Export All Orders',
      'Total: 4 orders',
      'Page 1 of 1',
      'Direct Customer',
      'Kofi Bundles',
      'Not Approved',
      'GH₵4.50'
    ]) {
      expect(text, t).to.include(t)
    }
    expect(await page.$eval('#f-search', (e) => (e as HTMLInputElement).placeholder)).to.equal('Search orders, numbers, agents, status...')
    // The unpaid order cannot be marked delivered.
    expect(await page.$eval(`tr[data-order-id="${unpaid.id}"] input[type=checkbox]`, (e) => (e as HTMLInputElement).disabled)).to.equal(true)

    // Filter by network: only the Telecel order is left; mark it delivered.
    await page.select('#f-network', 'TELECEL')
    await rowCount(page, 1)
    await waitText(page, 'Network: Telecel')
    await page.click(`tr[data-order-id="${telecel.id}"] input[type=checkbox]`)
    await page.waitForFunction((id) => (document.querySelector(`tr[data-order-id="${id}"] input[type=checkbox]`) as HTMLInputElement)?.checked, {}, telecel.id)
    expect((await sql('SELECT delivered FROM orders WHERE id = :id', { id: telecel.id }))[0].delivered).to.equal(true)

    // A search with no hit shows the filtered empty message; Clear brings the list back.
    await page.select('#f-network', 'ALL')
    await rowCount(page, 4)
    await page.type('#f-search', 'zzz-nothing')
    await waitText(page, 'No orders match the current filters.')
    await waitText(page, '0 results found')
    await clickButton(page, 'Clear')
    await rowCount(page, 4)

    // Export: the browser downloads the CSV (CDP download behaviour), which is parsed here.
    const dl = await downloads(page)
    await clickButton(page, 'Export All Orders')
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.toast-area .notification')].some((n) => n.textContent?.includes('Orders exported successfully!'))
    )
    const [header, ...rows] = parseCsv(await dl.read(`orders_export_${new Date().toISOString().slice(0, 10)}.csv`))
    await dl.done()
    expect(header!.slice(0, 3)).to.deep.equal(['Order ID', 'Recipient Number', 'Network'])
    expect(rows.map((r) => Number(r[0])).sort()).to.deep.equal([mtnAgent.id, mtnDirect.id].sort())
    expect(rows.map((r) => r[1]).sort()).to.deep.equal(['\t0241112222', '\t0543334444'])

    // The exported orders left the active list (the hand-delivered and the unpaid one stay) ...
    await rowCount(page, 2)
    // ... and are in the history.
    await clickButton(page, 'Show Exported History')
    await waitText(page, 'Exported Orders History')
    await rowCount(page, 2)
    const history = await bodyText(page)
    expect(history).to.include('Exported At')
    expect(history).to.include('Exported: 2 orders')
    expect(history).not.to.include('Export All Orders')
    await clickButton(page, 'Show Active Orders')
    await waitText(page, 'Active Orders')

    // Nothing left to export: the info toast.
    await sql("UPDATE orders SET payment_status = 'FAILED' WHERE id = :id", { id: unpaid.id })
    await clickButton(page, 'Export All Orders')
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.toast-area .notification')].some((n) => n.textContent?.includes('No orders available for export'))
    )
    await page.browserContext().close()
  })

  it('marks an AFA registration completed, and the overview draws its charts only after hydration', async () => {
    const afa = await createAfaRegistration({ fullName: 'Abena Owusu', phone: '0249990000' })
    await createOrder({ paymentStatus: 'SUCCESS', amountPesewas: 1200, network: 'TELECEL' })
    await createOrder({ paymentStatus: 'FAILED', network: 'MTN' })

    const page = await newPage(browser, { width: 1024 })
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/afa'))
    await hydrated(page)
    await waitText(page, 'Abena Owusu')
    expect(await bodyText(page)).to.include('Mark completed')
    await page.click(`tr[data-afa-id="${afa.id}"] input[type=checkbox]`)
    await page.waitForFunction(
      (id) => {
        const box = document.querySelector(`tr[data-afa-id="${id}"] input[type=checkbox]`) as HTMLInputElement
        return box?.checked && box.disabled
      },
      {},
      afa.id
    )
    expect((await sql('SELECT completed FROM afa_registrations WHERE id = :id', { id: afa.id }))[0].completed).to.equal(true)

    // The server render carries placeholders and no chart code; the public home page neither.
    const ssr = await page.evaluate(async () => (await fetch('/admin/overview', { headers: { Accept: 'text/html' } })).text())
    expect(ssr).to.include('data-charts="pending"')
    expect(ssr).to.include('Loading chart...')
    expect(ssr).not.to.match(/apexcharts/i)
    const home = await page.evaluate(async () => (await fetch('/', { headers: { Accept: 'text/html' } })).text())
    expect(home).not.to.match(/apexcharts/i)

    await page.goto(url('/admin/overview'))
    await hydrated(page)
    await page.waitForFunction(() => document.querySelectorAll('.apexcharts-canvas').length === 4)
    const heights = await page.$$eval('.apexcharts-canvas', (els) => els.map((e) => Math.round(e.getBoundingClientRect().height)))
    expect(
      heights.every((h) => h >= 280 && h <= 320),
      String(heights)
    ).to.equal(true)
    // textContent: the card headings are upper-cased by CSS only.
    const text = await page.evaluate(() => document.body.textContent ?? '')
    for (const t of [
      'Total users',
      'Registered agents',
      'Total orders',
      'Pending orders',
      'Success rate',
      'Data revenue (GHS)',
      'Agent revenue (GHS)',
      'Data payment analytics',
      'Agent registration analytics',
      'Network distribution',
      '50.0%',
      'GH₵12.00'
    ]) {
      expect(text, t).to.include(t)
    }
    // Switching the range reloads the figures.
    await clickButton(page, '30 days')
    await page.waitForFunction(() => document.querySelector('button[aria-pressed="true"]')?.textContent === '30 days' && !document.querySelector('.is-loading'))
    expect(await page.$eval('[data-network="TELECEL"] .stat-value', (e) => e.textContent)).to.equal('1')
    await page.browserContext().close()
  })

  it('the overview shows orders and revenue per channel and cards sold per product, follows the range picker and fits a phone', async () => {
    await createOrder({ channel: 'ussd', paymentStatus: 'SUCCESS', amountPesewas: 450 })
    await createOrder({ channel: 'whatsapp', paymentStatus: 'SUCCESS', amountPesewas: 1200, createdAt: new Date(Date.now() - 10 * 86_400_000) })
    const productId = await checkerWithStock(await adminClient(), 3)
    const p = await app().services.vouchers.buy({ productId, quantity: 2, payerPhone: '0245000011', payerNetwork: 'MTN' }, { ip: '10.2.0.1' })
    await app().services.payments.settle(p.transactionId, { status: 'SUCCESS', message: 'Approved', amountPesewas: 4000, currency: 'GHS' })
    await app().db.sequelize.query(`UPDATE voucher_cards SET sold_at = now() - interval '10 days' WHERE payment_transaction_id = :tid`, {
      replacements: { tid: p.transactionId },
      type: QueryTypes.UPDATE
    })

    const page = await newPage(browser, { width: 360 })
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/overview'))
    await hydrated(page)
    expect(await cells(page, 'channel-sales')).to.deep.equal([
      ['Web', '0', 'GH₵0.00'],
      ['USSD', '1', 'GH₵4.50'],
      ['WhatsApp', '0', 'GH₵0.00'],
      ['API', '0', 'GH₵0.00']
    ])
    expect(await page.$('[data-testid="checker-sales"]')).to.equal(null)
    expect(await page.evaluate(() => document.body.innerText)).to.include('No checker cards sold in this range.')

    await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent === '30 days')!.click())
    await page.waitForFunction(
      () =>
        document.querySelector('button[aria-pressed="true"]')?.textContent === '30 days' &&
        !document.querySelector('.is-loading') &&
        document.querySelector('[data-testid="checker-sales"]')
    )
    expect(await cells(page, 'checker-sales')).to.deep.equal([['BECE checker', '2', 'GH₵40.00']])
    expect((await cells(page, 'channel-sales'))[2]).to.deep.equal(['WhatsApp', '1', 'GH₵12.00'])
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 360 px').to.be.at.most(360)
    await page.browserContext().close()
  })
})
