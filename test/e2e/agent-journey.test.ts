import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, fitsPhone, goto, hydrated, login, newPage, tap, url } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'

async function clickButton(page: Page, text: string, scope = 'body') {
  await page.waitForFunction(
    (t, s) => [...document.querySelectorAll(`${s} button`)].some((b) => (b as HTMLElement).innerText.trim() === t && !(b as HTMLButtonElement).disabled),
    {},
    text,
    scope
  )
  await page.evaluate(
    (t, s) => ([...document.querySelectorAll(`${s} button`)].find((b) => (b as HTMLElement).innerText.trim() === t) as HTMLElement).click(),
    text,
    scope
  )
}

/** Clicks through the DOM: a toast in the corner of a 360 px screen may cover the button's spot. */

describe('browser: the agent journey', function () {
  const browser = browserSuite(this, 180_000, 'each')

  it('register -> pay the fee -> approved -> order at the agent price -> My Orders -> PIN -> password -> messages', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { agentRegistrationFee: 20 })).status).to.equal(200)
    const pkg: any = await factories.createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 1000, priceAgentPesewas: 800 })

    const page = await newPage(browser, { width: 360 })
    await page.browserContext().overridePermissions(url('/'), ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write'])

    // Register: fee banner, strength meter, the spec's success text, then /login after 2 s.
    await goto(page, '/agent/register')
    expect(await bodyText(page))
      .to.include('GH₵20.00')
      .and.include('What Happens Next?')
    await page.type('#reg-name', 'Kojo Data Hub')
    await page.type('#reg-phone', '0244556677')
    await page.type('#reg-email', 'kojo@example.com')
    await page.type('#reg-password', 'Secret#123')
    expect(await page.$$eval('[data-testid=strength-dot].is-success', (d) => d.length)).to.equal(4)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    expect(new URL(page.url()).pathname).to.equal('/login')

    // Log in: the agent lands on the dashboard, which asks for the fee.
    await login(page, 'kojo@example.com', 'Secret#123')
    await hydrated(page)
    expect(new URL(page.url()).pathname).to.equal('/agent/dashboard')
    await waitText(page, 'Payment Required')
    expect(await fitsPhone(page)).to.equal(true)

    // Pay the fee: the phone is prefilled; the simulator plays the payer's phone.
    await goto(page, '/agent/payment')
    expect(await page.$eval('#pay-phone', (e) => (e as HTMLInputElement).value)).to.equal('0244556677')
    await page.select('#pay-network', 'MTN')
    await clickButton(page, 'Pay GH₵20.00')
    await page.waitForSelector('[data-testid=fee-txn]')
    const feeTxn = await page.$eval('[data-testid=fee-txn]', (e) => e.textContent!.trim())
    await waitText(page, 'Payment Pending')
    await app().services.simulator.approve(feeTxn)
    await tap(page, '[data-testid=i-have-paid]')
    await page.waitForSelector('[data-testid=fee-paid]')
    expect(await fitsPhone(page)).to.equal(true)
    expect(await bodyText(page)).to.include('Payment Successful')

    await goto(page, '/agent/dashboard')
    await waitText(page, 'Payment Complete - Awaiting Approval')
    // Not yet approved: ordering is closed.
    await goto(page, '/agent/place-order')
    await waitText(page, 'Waiting for Admin Approval')
    expect(await page.$('#po-package')).to.equal(null)

    // Approved through the API.
    const agentRow = await app().db.models.Agent.findOne({ where: { phone: '0244556677' } })
    const agentId = agentRow!.get('id') as number
    expect((await admin.patch(`/api/agents/${agentId}/approve`)).status).to.equal(200)
    await goto(page, '/agent/dashboard')
    await waitText(page, 'Account Fully Active')
    expect(await page.$$eval('.app-sidebar a', (as) => as.map((a) => a.textContent))).to.not.include('Payment')
    // The Payment page is for unapproved or unpaid agents only.
    await page.goto(url('/agent/payment'))
    expect(new URL(page.url()).pathname).to.equal('/agent/dashboard')

    // Place an order at the agent price.
    await goto(page, '/agent/place-order')
    await page.select('#po-network', 'MTN')
    await page.select('#po-package', String(pkg.id))
    await page.type('#po-recipient', '0201234567')
    await waitText(page, 'GH₵8.00')
    expect(await fitsPhone(page)).to.equal(true)
    await tap(page, '[data-testid=proceed]')
    await page.waitForSelector('[data-testid=payment-dialog]')
    expect(await page.$eval('[data-testid=payment-amount]', (e) => e.textContent)).to.equal('GH₵8.00')
    expect(await page.$eval('#po-payer-phone', (e) => (e as HTMLInputElement).value)).to.equal('0244556677')
    await clickButton(page, 'Proceed to Payment', '[data-testid=payment-dialog]')
    await page.waitForFunction(() => document.querySelector('[data-testid=payment-status]')?.textContent === 'Pending')
    const order = await app().db.models.Order.findOne({ where: { recipientNumber: '0201234567' } })
    expect(order!.get('amountPesewas')).to.equal(800)
    expect(order!.get('agentId')).to.equal(agentId)
    await app().services.simulator.approve(order!.get('paymentTransactionId'))
    await clickButton(page, 'I Have Paid', '[data-testid=payment-dialog]')
    await page.waitForFunction(() => document.querySelector('[data-testid=payment-status]')?.textContent === 'Successful')
    await Promise.all([page.waitForNavigation(), clickButton(page, 'Complete Order', '[data-testid=payment-dialog]')])

    // My Orders: the order is there; filters narrow and empty the table.
    expect(new URL(page.url()).pathname).to.equal('/agent/orders')
    await hydrated(page)
    await page.waitForSelector('[data-testid=order-row]')
    let text = await bodyText(page)
    for (const t of ['Track and manage your data orders', '0201234567', 'GH₵8.00', '2.0GB', 'Successful', 'Orders (1)', 'Total (1)'])
      expect(text, t).to.include(t)
    expect(await fitsPhone(page)).to.equal(true)
    await page.select('#orders-status', 'SUCCESS')
    await page.waitForFunction(() => document.querySelector('[data-testid=orders-count]')?.textContent === 'Orders (1)')
    await page.select('#orders-network', 'TELECEL')
    await waitText(page, 'No orders match your filters.')
    await page.select('#orders-network', 'ALL')
    await page.type('#orders-search', '0201234')
    await page.waitForSelector('[data-testid=order-row]')

    // The number ordered for is now a recent chip that fills the recipient.
    await goto(page, '/agent/place-order')
    await clickButton(page, '0201234567')
    expect(await page.$eval('#po-recipient', (e) => (e as HTMLInputElement).value)).to.equal('0201234567')

    // Packages: regular price struck through, the agent price, and what the agent saves.
    await goto(page, '/agent/packages')
    text = await bodyText(page)
    for (const t of ['Package Pricing', 'Regular Price', 'Your Price', 'You Save', 'Save up to GH₵2.00', 'Agent Benefits']) expect(text, t).to.include(t)
    await clickButton(page, 'TELECEL')
    await page.waitForFunction(() => !document.querySelector('[data-testid=network-card-MTN]'))
    expect(await fitsPhone(page)).to.equal(true)

    // Profile: reset and copy the PIN; it works for USSD and is not stored in clear.
    await goto(page, '/agent/profile')
    text = await bodyText(page)
    for (const t of ['Account Information', 'Kojo Data Hub', 'Approved', 'Successful', 'Member Since', 'USSD Agent PIN']) expect(text, t).to.include(t)
    expect(await fitsPhone(page)).to.equal(true)
    await tap(page, '[data-testid=reset-pin]')
    await page.waitForFunction(() => /^\d{4}$/.test(document.querySelector('[data-testid=pin-value]')?.textContent ?? ''))
    const pin = await page.$eval('[data-testid=pin-value]', (e) => e.textContent!)
    expect((await app().services.ussd.verifyPin(agentId, pin)).ok).to.equal(true)
    await tap(page, '[data-testid=copy-pin]')
    await waitText(page, 'PIN copied to clipboard')
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(pin)
    await clickButton(page, 'Hide')
    await page.waitForFunction(() => document.querySelector('[data-testid=pin-value]')?.textContent === '••••')

    // Change the password: a mismatch is refused in the page, then the change works.
    await page.type('#pw-current', 'Secret#123')
    await page.type('#pw-next', 'NewSecret#456')
    await page.type('#pw-confirm', 'NewSecret#45')
    await clickButton(page, 'Change Password')
    await waitText(page, 'New passwords do not match')
    await page.type('#pw-confirm', '6')
    await clickButton(page, 'Change Password')
    await waitText(page, 'Password changed successfully')
    expect((await new Client().login('kojo@example.com', 'NewSecret#456')).status).to.equal(200)

    // Messages: reading one drops the unread count.
    const { AdminMessage, AdminMessageRecipient } = app().db.models
    const user = await app().db.models.User.findOne({ where: { email: 'kojo@example.com' } })
    for (const title of ['Welcome aboard', 'New MTN prices']) {
      const m = await AdminMessage.create({ title, message: `${title}: details`, priority: 'NORMAL' })
      await AdminMessageRecipient.create({ messageId: m.get('id'), userId: user!.get('id'), isRead: false })
    }
    await goto(page, '/agent/dashboard')
    await page.waitForFunction(() => document.querySelector('[data-testid=unread-count]')?.textContent === '2')
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/read') && r.status() === 200), tap(page, '[data-testid=message-item]')])
    await page.waitForFunction(() => document.querySelector('[data-testid=unread-count]')?.textContent === '1')
    await waitText(page, 'New MTN prices: details')
    expect(await fitsPhone(page)).to.equal(true)
    expect(await AdminMessageRecipient.count({ where: { isRead: false } })).to.equal(1)
    // The dashboard counts the order.
    expect(await page.$eval('[data-testid=success-rate]', (e) => e.textContent)).to.equal('100%')
  })

  it('an admin approves a paid agent from the Agents page; an unpaid one cannot be toggled', async () => {
    await factories.createAgent({ name: 'Paid Pending', approved: false, paymentStatus: 'SUCCESS', paymentTransactionId: '123456789012345' })
    await factories.createAgent({ name: 'Unpaid Agent', approved: false, paymentStatus: 'PENDING' })
    const page = await newPage(browser, { width: 360 })
    const { ADMIN } = await import('../helpers/server.ts')
    await login(page, ADMIN.email, ADMIN.password)
    await goto(page, '/admin/agents')
    await page.waitForSelector('[data-testid=agent-row]')
    let text = await bodyText(page)
    for (const t of ['Agents (2)', 'Total: 2', 'Paid Pending', 'Unpaid Agent', '123456789012345', 'N/A', 'Successful', 'Pending']) expect(text, t).to.include(t)
    expect(await page.$eval('input[aria-label="Approve Unpaid Agent"]', (e) => (e as HTMLInputElement).disabled)).to.equal(true)
    await tap(page, 'input[aria-label="Approve Paid Pending"]')
    await waitText(page, 'Agent approved')
    const row = await app().db.models.Agent.findOne({ where: { name: 'Paid Pending' } })
    expect(row!.get('approved')).to.equal(true)
    await page.select('#agents-status', 'pending')
    await page.waitForFunction(() => document.querySelector('[data-testid=agents-count]')?.textContent === 'Agents (1)')
    await page.type('#agents-search', 'nobody-matches')
    await waitText(page, 'No agents match your filters.')
    text = await bodyText(page)
    expect(text).to.include('Total: 2')
  })
})
