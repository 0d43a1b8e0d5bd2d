import { expect } from 'chai'
import { bodyText, fitsPhone, goto, hydrated, login, newPage, tap, url } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'

// In the browser: an agent tops up on the simulator, buys from the wallet, reads the statement.

describe('browser: the agent wallet', function () {
  const browser = browserSuite(this, 180_000, 'each')

  it('tops up by mobile money, buys from the wallet, sees the statement; the admin sees the balance and the developers page renders', async () => {
    const pkg: any = await factories.createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 1000, priceAgentPesewas: 800 })
    const a = await factories.createAgent({ phone: '0244112233', email: 'wallet.agent@example.com', password: 'Secret#123' })
    const page = await newPage(browser, { width: 360 })
    await login(page, 'wallet.agent@example.com', 'Secret#123')
    await hydrated(page)
    await waitText(page, 'Wallet balance')
    expect(await page.$eval('[data-testid=dashboard-wallet]', (e) => (e as HTMLElement).innerText)).to.include('GH₵0.00')

    // Top up GH₵20 by mobile money; the payer approves on the simulator.
    await goto(page, '/agent/wallet')
    expect(await fitsPhone(page)).to.equal(true)
    await page.type('#topup-amount', '20')
    await tap(page, '[data-testid=topup-submit]')
    await page.waitForSelector('[data-testid=topup-pending]')
    const [payment] = (await app().db.models.Payment.findAll({ where: { purpose: 'wallet_topup' }, raw: true })) as any[]
    expect(payment).to.include({ amountPesewas: 2000, payerPhone: '0244112233', status: 'PENDING' })
    expect((await new Client().post(`/api/simulator/payments/${payment.transactionId}/approve`)).status).to.equal(200)
    await tap(page, '[data-testid=topup-check]')
    await page.waitForFunction(() => document.querySelector('[data-testid=wallet-balance]')?.textContent === 'GH₵20.00')
    await page.waitForFunction(() => document.querySelector('[data-testid=statement]')?.textContent?.includes('Top-up'))

    // Buy 2GB MTN from the wallet on Place Order.
    await goto(page, '/agent/place-order')
    await page.select('#po-network', 'MTN')
    await page.select('#po-package', String(pkg.id))
    await page.type('#po-recipient', '0551234567')
    await page.waitForFunction(() => (document.querySelector('[data-testid=pay-wallet]') as HTMLButtonElement | null)?.disabled === false)
    expect(await page.$eval('[data-testid=pay-wallet]', (e) => (e as HTMLElement).innerText)).to.equal('Pay from wallet (balance GH₵20.00)')
    // The first tap asks once, with the amount; nothing is paid until Confirm.
    await tap(page, '[data-testid=pay-wallet]')
    await page.waitForSelector('[data-testid=pay-wallet-confirm]')
    expect(await page.$eval('[data-testid=pay-wallet-confirm-box]', (e) => (e as HTMLElement).innerText)).to.include(
      'Pay GH₵8.00 from your wallet for MTN 2.0GB to 0551234567? Balance after: GH₵12.00.'
    )
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('pay-wallet-confirm')
    expect(await app().db.models.Order.count({ where: { agentId: a.agent.id } })).to.equal(0)
    await Promise.all([page.waitForNavigation(), tap(page, '[data-testid=pay-wallet-confirm]')])
    expect(new URL(page.url()).pathname).to.equal('/agent/orders')
    const [order] = (await app().db.models.Order.findAll({ where: { agentId: a.agent.id }, raw: true })) as any[]
    expect(order).to.include({ paymentStatus: 'SUCCESS', amountPesewas: 800, recipientNumber: '0551234567' })

    // The statement: both entries, filter by type, CSV link carries the filter.
    await goto(page, '/agent/wallet')
    expect(await page.$eval('[data-testid=wallet-balance]', (e) => e.textContent)).to.equal('GH₵12.00')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=statement] tbody tr').length === 2)
    const rows = await page.$$eval('[data-testid=statement] tbody tr', (trs) => trs.map((t) => (t as HTMLElement).innerText))
    expect(rows[0]).to.include('Order').and.include(`Order #${order.id}`).and.include('-GH₵8.00').and.include('GH₵12.00')
    expect(rows[1]).to.include('Top-up').and.include('+GH₵20.00')
    await page.select('#st-type', 'ORDER')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=statement] tbody tr').length === 1)
    expect(await page.$eval('[data-testid=statement-csv]', (e) => e.getAttribute('href'))).to.equal('/api/wallet/statement.csv?type=ORDER')
    expect(await fitsPhone(page)).to.equal(true)

    // The admin sees the balance on Agents and the liability on Overview.
    const admin = await browser.createBrowserContext()
    const ap = await admin.newPage()
    const errors: string[] = []
    ap.on('pageerror', (e) => errors.push(String(e)))
    ap.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await login(ap, 'admin@test.local', 'admin-pass-123')
    await ap.goto(url('/admin/agents'))
    await hydrated(ap)
    await ap.waitForFunction(() => document.querySelector('[data-testid=agent-wallet]')?.textContent === 'GH₵12.00')
    await ap.goto(url('/admin/overview'))
    await hydrated(ap)
    const overview = await bodyText(ap)
    expect(overview.toLowerCase()).to.include('wallet liability (ghs)')
    await ap.goto(url(`/admin/wallets?agentId=${a.agent.id}`))
    await hydrated(ap)
    await ap
      .waitForFunction(() => document.querySelector('[data-testid=admin-wallet-balance]')?.textContent === 'GH₵12.00', { timeout: 5000 })
      .catch(async (e) => {
        throw new Error(`${e.message}: ${errors.join(' | ')} ${(await ap.content()).slice(0, 3000)}`)
      })
    await admin.close()

    // The developers page renders the documented routes.
    await goto(page, '/developers')
    const docs = await bodyText(page)
    expect(docs).to.include('Data Hub Reseller API').and.include('/orders/{id}').and.include('Idempotency-Key').and.include('X-DataHub-Signature')
    expect(await fitsPhone(page)).to.equal(true)
    void (await adminClient())
  })
})
