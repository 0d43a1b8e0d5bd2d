import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { QueryTypes } from 'sequelize'
import { goto, hydrated, login, newPage } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'
import { checkPaidIfPending, clickButton, DIALOG, dismissToasts, mtn1gb, waitText } from '../helpers/storefront.ts'

// What people read on a 360 px phone and in their texts: labels, never the codes the API speaks;
// one money format (GH₵20.00 on the web, GHS in texts); day-first dates.
const CODES = ['wallet_topup', 'TELECEL', 'AIRTELTIGO', 'DELIVERED', 'SUCCESS']

/** Everything shown: the page's visible text plus the options of its selects (innerText leaves closed selects' options out). */
const shownText = (page: Page) =>
  page.evaluate(() => [document.body.innerText, ...[...document.querySelectorAll('option')].map((o) => o.textContent ?? '')].join('\n'))

function plainWordsProblems(text: string): string[] {
  const problems: string[] = []
  for (const code of CODES) if (new RegExp(`\\b${code}\\b`).test(text)) problems.push(`shows the code ${code}`)
  if (text.includes('GH₵ ')) problems.push('shows "GH₵ " with a space')
  for (const m of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g)) if (Number(m[2]) > 12) problems.push(`shows a month-first date ${m[0]}`)
  return problems
}

async function expectPlainWords(page: Page, where: string) {
  const text = await shownText(page)
  expect(plainWordsProblems(text), `${where}:\n${text}`).to.deep.equal([])
  // One pixel of rounding, as the other phone tests allow.
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${where} fits 360 px`).to.be.at.most(361)
  return text
}

/** A date of today in the format people here read, and the month-first one they must not see. */
function todayBothWays() {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Accra', day: '2-digit', month: '2-digit', year: 'numeric' })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value])
  )
  return { dayFirst: `${parts.day}/${parts.month}/${parts.year}`, monthFirst: `${parts.month}/${parts.day}/${parts.year}` }
}

describe('browser: plain words at 360 px (labels, money, dates, texts)', function () {
  const browser = browserSuite(this, 240_000, 'each')

  it('self-check: the checker finds each code, a spaced cedi sign and a month-first date', () => {
    expect(plainWordsProblems('Status SUCCESS, 1.0GB TELECEL, GH₵ 5.00, 11/26/2026, wallet_topup')).to.have.length(5)
    expect(plainWordsProblems('Successful, 1.0GB Telecel, GH₵5.00, 26/11/2026, Wallet top-up, Payment successful!')).to.deep.equal([])
  })

  it('buy journey: payer network from the prefix, labels in the dialog and lookup, GHS and network names in the texts', async () => {
    const { dayFirst, monthFirst } = todayBothWays()
    const page = await newPage(browser, { width: 360 })
    await goto(page, '/')
    await expectPlainWords(page, 'home')
    await goto(page, '/data-services')
    await page.click(`[data-testid="package-${await mtn1gb()}"]`)
    await page.type('#recipient', '0201112222')
    // A Telecel number picks Telecel; an MTN number then picks MTN again.
    await page.type('#buy-payer-phone', '0201234567')
    await page.waitForFunction(() => (document.querySelector('#buy-payer-network') as HTMLSelectElement).value === 'TELECEL')
    await page.click('#buy-payer-phone', { count: 3 })
    await page.keyboard.press('Backspace')
    await page.type('#buy-payer-phone', '0241234567')
    await page.waitForFunction(() => (document.querySelector('#buy-payer-network') as HTMLSelectElement).value === 'MTN')
    await expectPlainWords(page, 'buy form')
    await page.click('form button[type="submit"]')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')

    const phone = await newPage(browser, { width: 360 })
    await goto(phone, '/simulator/phone?phone=0241234567')
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    expect(await expectPlainWords(phone, 'simulator phone')).to.include('Data bundle')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')

    await checkPaidIfPending(page)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
    const dialogText = await expectPlainWords(page, 'payment dialog')
    expect(dialogText).to.not.include('to finalize')
    await clickButton(page, 'Complete Order')
    await waitText(page, 'Order placed successfully!')
    await dismissToasts(page)

    await app().services.queue.drain()
    const [tab] = await page.$$('xpath///a[@role="tab" and contains(., "My Orders")]')
    await tab!.click()
    await page.type('#lookup-phone', '0201112222')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="order-card"]')
    const lookup = await expectPlainWords(page, 'my orders')
    expect(lookup).to.include('Successful').and.include(dayFirst).and.not.include(monthFirst)

    // A Telecel bundle bought through the API: its texts name the network as people do.
    const telecel = (await app().db.models.Package.findOne({ where: { network: 'TELECEL', sizeMb: 1024 } }))!.get('id') as number
    const api = new Client()
    const placed = await api.post('/api/orders', { packageId: telecel, recipientNumber: '0201113333', payerPhone: '0241237777', payerNetwork: 'MTN' })
    expect(placed.status).to.equal(201)
    expect((await api.post(`/api/simulator/payments/${placed.body.order.paymentTransactionId}/approve`)).status).to.equal(200)
    await app().services.queue.drain()
    const texts = await app().db.sequelize.query<{ message: string }>('SELECT message FROM sms_outbox ORDER BY id', { type: QueryTypes.SELECT })
    const all = texts.map((t) => t.message).join('\n')
    expect(all).to.include('1.0GB Telecel data').and.include('1.0GB MTN data')
    expect(plainWordsProblems(all), all).to.deep.equal([])
    expect(all).to.not.include('₵')
  })

  it('agent fee of 10: the amount as GH₵10.00, approval pending said plainly after paying', async () => {
    await app().services.settings.update({ agentRegistrationFee: 10 }, {})
    await factories.createAgent({ phone: '0244001122', email: 'fee.ten@example.com', password: 'Secret#123', approved: false, paymentStatus: null })
    const page = await newPage(browser, { width: 360 })
    await login(page, 'fee.ten@example.com', 'Secret#123')
    await hydrated(page)
    await waitText(page, 'Payment Required')
    expect(await expectPlainWords(page, 'dashboard, fee due')).to.include('GH₵10.00')
    await goto(page, '/agent/payment')
    const due = await expectPlainWords(page, 'payment page, fee due')
    expect(due).to.include('GH₵10.00').and.include('Pay GH₵10.00')
    expect(await page.$eval('#pay-network', (e) => (e as HTMLSelectElement).value)).to.equal('MTN')
    await clickButton(page, 'Pay GH₵10.00')
    await page.waitForSelector('[data-testid=fee-txn]')
    await app().services.simulator.approve(await page.$eval('[data-testid=fee-txn]', (e) => e.textContent!.trim()))
    await page.$eval('[data-testid=i-have-paid]', (e) => (e as HTMLElement).click())
    await page.waitForSelector('[data-testid=fee-paid]')
    await waitText(page, 'awaiting admin approval')
    const paid = await expectPlainWords(page, 'payment page, paid')
    expect(paid).to.not.include('now active')
    await goto(page, '/agent/dashboard')
    await waitText(page, 'Payment Complete - Awaiting Approval')
    expect(await expectPlainWords(page, 'dashboard, paid')).to.include('Your payment is verified')
  })

  it('agent fee of 0: says no fee is due, never a verified GH₵0.00 payment', async () => {
    await app().services.settings.update({ agentRegistrationFee: 0 }, {})
    const page = await newPage(browser, { width: 360 })
    await goto(page, '/agent/register')
    await page.type('#reg-name', 'Ama Free')
    await page.type('#reg-phone', '0244003344')
    await page.type('#reg-email', 'fee.zero@example.com')
    await page.type('#reg-password', 'Secret#123')
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    await login(page, 'fee.zero@example.com', 'Secret#123')
    await hydrated(page)
    await waitText(page, 'No Fee Due - Awaiting Approval')
    const dash = await expectPlainWords(page, 'dashboard, no fee')
    expect(dash).to.include('No registration fee is due').and.not.include('Your payment is verified').and.not.include('Payment Complete')
    await goto(page, '/agent/payment')
    const pay = await expectPlainWords(page, 'payment page, no fee')
    expect(pay).to.include('No fee due').and.include('No registration fee is due')
    expect(pay).to.not.include('GH₵0.00').and.not.include('Payment Successful').and.not.include('Payment verified')
  })

  it('wallet and shop: top-up prompt names the purpose, paying from the wallet asks once, orders and shop read in words', async () => {
    const { monthFirst } = todayBothWays()
    const pkg: any = await factories.createPackage({ network: 'AIRTELTIGO', sizeMb: 2048, priceUserPesewas: 1000, priceAgentPesewas: 800 })
    const a = await factories.createAgent({ phone: '0244112233', email: 'wallet.words@example.com', password: 'Secret#123' })
    const page = await newPage(browser, { width: 360 })
    await login(page, 'wallet.words@example.com', 'Secret#123')
    await hydrated(page)
    // The portal header on a phone: the brand and a labelled menu button; the page named in the breadcrumb.
    expect(await page.$eval('[data-testid=sidebar-toggle]', (e) => (e as HTMLElement).innerText.trim())).to.include('Menu')
    expect(await page.$eval('.portal-brand', (e) => (e as HTMLElement).innerText)).to.equal('Data Hub')
    expect(await page.$eval('.breadcrumb [aria-current=page]', (e) => e.textContent)).to.equal('Dashboard')
    expect(await page.$eval('[data-testid=theme-toggle]', (e) => (e as HTMLElement).innerText.trim())).to.match(/Dark|Light/)

    await goto(page, '/agent/wallet')
    await page.type('#topup-amount', '20')
    await page.$eval('[data-testid=topup-submit]', (e) => (e as HTMLElement).click())
    await page.waitForSelector('[data-testid=topup-pending]')
    await expectPlainWords(page, 'wallet, top-up pending')
    const phone = await newPage(browser, { width: 360 })
    await goto(phone, '/simulator/phone?phone=0244112233')
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    expect(await expectPlainWords(phone, 'top-up prompt')).to.include('Wallet top-up')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')
    await page.$eval('[data-testid=topup-check]', (e) => (e as HTMLElement).click())
    await page.waitForFunction(() => document.querySelector('[data-testid=wallet-balance]')?.textContent === 'GH₵20.00')
    await page.waitForFunction(() => document.querySelector('[data-testid=statement]')?.textContent?.includes('Top-up'))
    expect(await expectPlainWords(page, 'wallet statement')).to.not.include(monthFirst)

    await goto(page, '/agent/place-order')
    await page.select('#po-network', 'AIRTELTIGO')
    await page.select('#po-package', String(pkg.id))
    await page.type('#po-recipient', '0261234567')
    await page.waitForFunction(() => (document.querySelector('[data-testid=pay-wallet]') as HTMLButtonElement | null)?.disabled === false)
    await expectPlainWords(page, 'place order')
    await page.$eval('[data-testid=pay-wallet]', (e) => (e as HTMLElement).click())
    await page.waitForSelector('[data-testid=pay-wallet-confirm]')
    expect(await expectPlainWords(page, 'wallet confirm')).to.include('Pay GH₵8.00 from your wallet for AirtelTigo 2.0GB to 0261234567?')
    expect(await app().db.models.Order.count({ where: { agentId: a.agent.id } })).to.equal(0)
    await Promise.all([page.waitForNavigation(), page.$eval('[data-testid=pay-wallet-confirm]', (e) => (e as HTMLElement).click())])
    expect(await app().db.models.Order.count({ where: { agentId: a.agent.id, paymentStatus: 'SUCCESS' } })).to.equal(1)
    await app().services.queue.drain()

    await goto(page, '/agent/orders')
    await page.waitForSelector('[data-testid=order-row]')
    const orders = await expectPlainWords(page, 'agent orders')
    expect(orders).to.include('Successful').and.include('AirtelTigo').and.not.include(monthFirst)

    // The agent's shop and its public page.
    const actor = await app().services.auth.loadActor(a.user.id)
    await app().services.shops.saveMine({ slug: 'words-shop', name: 'Words Shop', description: 'Plain words', whatsapp: '0244112233' }, { user: actor })
    await app().services.shops.setPrices({ prices: [{ packageId: pkg.id, price: 9 }] }, { user: actor })
    await goto(page, '/agent/shop')
    await expectPlainWords(page, 'agent shop')
    const visitor = await newPage(browser, { width: 360 })
    await goto(visitor, '/shop/words-shop')
    expect(await expectPlainWords(visitor, 'public shop')).to.include('Words Shop')

    const texts = await app().db.sequelize.query<{ message: string }>('SELECT message FROM sms_outbox ORDER BY id', { type: QueryTypes.SELECT })
    const all = texts.map((t) => t.message).join('\n')
    expect(plainWordsProblems(all), all).to.deep.equal([])
  })
})
