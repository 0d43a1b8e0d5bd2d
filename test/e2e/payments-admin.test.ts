import { expect } from 'chai'
import { hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { ADMIN, app } from '../helpers/server.ts'

// The admin refunds a paid, undelivered order from the orders page; a refused refund shows on
// "Payments needing attention" with its count on the overview, and Retry refund gives the money back.
// A wallet top-up is refunded from the agent's wallet page, out of the wallet.
describe('browser: admin refund and payments needing attention (simulator)', function () {
  const browser = browserSuite(this, 90_000, 'each')

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

  it('Reconcile now on a phone-sized screen: the mismatch of yesterday is listed, and the run shows', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    // SUCCESS here, but the simulator's payer never approved it: paid here, not at the gateway.
    await app().db.sequelize.query(
      `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, created_at) VALUES ('E2E-RECON-1', 'data', 'simulator', 'momo', 'SUCCESS', 500, :at)`,
      { replacements: { at: `${yesterday}T12:00:00Z` } }
    )
    const page = await newPage(browser, { width: 360, height: 740 })
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/payments'))
    await hydrated(page)
    expect(await page.$eval('#recon-from', (e) => (e as HTMLInputElement).value)).to.equal(yesterday)
    expect(await page.$$('[data-testid="attention-item"]')).to.have.length(0)
    const [button] = await page.$$('xpath/.//button[contains(., "Reconcile now")]')
    await button!.click()
    await page.waitForFunction(() => document.body.innerText.includes('Reconciled 1 day: 1 to look at'))
    await page.waitForSelector('[data-testid="attention-item"][data-kind="recon_mismatch"]')
    expect(await page.$eval('[data-testid="attention-item"][data-kind="recon_mismatch"]', (e) => e.textContent)).to.include('E2E-RECON-1')
    expect(await page.$eval('table tbody tr', (e) => e.textContent)).to.include(yesterday)
    // Nothing sticks out past a 360 px screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
  })

  // A top-up goes back to the payer out of the wallet (ADR 0045): refused while the wallet no longer holds it.
  it('Refund on a top-up: the refusal is shown in the dialog; once covered, the balance drops and the statement shows the debit', async () => {
    const pkg = await factories.createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    app().services.packages.invalidate()
    const a = await factories.createAgent()
    const c = new Client()
    await c.login(a.user.email, a.password)
    const topup = await c.post('/api/wallet/topup', { amount: 10, payerPhone: '0241234567', payerNetwork: 'MTN' })
    const tid = topup.body.transactionId as string
    await app().services.simulator.approve(tid)
    expect((await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241000001', payFrom: 'wallet' })).status).to.equal(201)

    const page = await newPage(browser)
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url(`/admin/wallets?agentId=${a.agent.id}`))
    await hydrated(page)
    await page.waitForSelector('[data-testid="refund-open"]')
    await page.click('[data-testid="refund-open"]')
    await page.type('textarea[id^="refund-reason-"]', 'Agent asked for the money back')
    await page.click('[data-testid="refund-submit"]')
    await page.waitForFunction(() =>
      /The wallet holds GHS 5\.50, less than the GHS 10\.00/.test(document.querySelector('.modal [role="alert"]')?.textContent ?? '')
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).to.equal(true)
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => !document.querySelector('.modal.is-active'))

    // The spent part comes back to the wallet (an admin credit): now the top-up can go back to the payer.
    const credited = await (await adminClient()).post(`/api/wallet/agents/${a.agent.id}/adjust`, {
      amount: 4.5,
      direction: 'CREDIT',
      reason: 'Order refunded by hand'
    })
    expect(credited.status, credited.text).to.equal(200)
    await page.reload()
    await hydrated(page)
    await page.waitForFunction(() => document.querySelector('[data-testid=admin-wallet-balance]')?.textContent === 'GH₵10.00')
    await page.click('[data-testid="refund-open"]')
    await page.type('textarea[id^="refund-reason-"]', 'Agent asked for the money back')
    await page.click('[data-testid="refund-submit"]')
    await page.waitForFunction(() => document.querySelector('[data-testid=admin-wallet-balance]')?.textContent === 'GH₵0.00')
    await page.waitForFunction(() => document.querySelector('[data-testid=statement] tbody tr')?.textContent?.includes('Refund of the top-up'))
  })
})
