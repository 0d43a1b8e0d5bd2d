import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import * as factories from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app } from '../helpers/server.ts'
import { approveOnSimulatorPhone, checkPaidIfPending, clickButton, DIALOG, dismissToasts, mtn1gb, startPurchase, waitText } from '../helpers/storefront.ts'

// Visitor journeys on a fresh install: no payment keys, so the built-in simulator plays the gateway.

describe('browser: storefront and payments (simulator)', function () {
  const browser = browserSuite(this, 90_000, 'each')

  it('a visitor buys 1GB MTN by mobile money, approves on the simulated phone, and finds the order under My Orders', async () => {
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201112222', payer: '0241234567' })
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    expect(await page.$eval('#payment-dialog-title', (e) => e.textContent)).to.equal('Payment Status')
    expect(await page.$eval('[data-testid="payment-status-text"]', (e) => e.textContent)).to.equal('USSD prompt sent! Check your phone and complete payment.')

    // The payer's phone, in another tab.
    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0241234567'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    expect(await bodyText(phone)).to.include('Pay GH₵5.00')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')

    await checkPaidIfPending(page)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
    expect(await page.$eval('[data-testid="payment-status-text"]', (e) => e.textContent)).to.equal('Payment successful! Your data will be delivered shortly.')
    // The order is settled already: nothing asks for a click to finalize it.
    expect(await bodyText(page)).to.not.include('to finalize')
    await clickButton(page, 'Complete Order')
    await waitText(page, 'Order placed successfully! Your data will be delivered shortly.')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
    expect(await page.$eval('#recipient', (e) => (e as HTMLInputElement).value)).to.equal('')
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('rdh_recent_recipients')))!)).to.deep.equal(['0201112222'])
    // On a phone the toasts sit over the top of the page; dismiss them as a person would.
    await dismissToasts(page)
    await clickButton(page, '0201112222', '//*[@aria-label="Recent recipients"]')
    expect(await page.$eval('#recipient', (e) => (e as HTMLInputElement).value)).to.equal('0201112222')

    const [tab] = await page.$$('xpath///a[@role="tab" and contains(., "My Orders")]')
    await tab!.click()
    await page.type('#lookup-phone', '0201112222')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="order-card"]')
    const card = await page.$eval('[data-testid="order-card"]', (e) => (e as HTMLElement).innerText)
    expect(card).to.include('Successful').and.include('GH₵5.00').and.include('1GB daily').and.include('0241234567')
    const order = (await app().db.models.Order.findOne({ raw: true })) as any
    expect(order).to.include({ paymentStatus: 'SUCCESS', amountPesewas: 500 })

    await page.$eval('#lookup-phone', (e) => ((e as HTMLInputElement).value = ''))
    await page.click('#lookup-phone', { count: 3 })
    await page.keyboard.press('Backspace')
    await page.type('#lookup-phone', '0500000000')
    await clickButton(page, 'Look Up')
    await page.waitForSelector('[data-testid="orders-empty"]')
    expect(await bodyText(page)).to.include('No Orders Found')
  })

  it('the open dialog watches the payment: approved on the phone in another page, it shows Successful and says so without a click', async () => {
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201114444', payer: '0241235555' })
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    // The badge and its text sit in a polite live region, so the change is announced.
    expect(await page.$eval('[data-testid="payment-status"]', (e) => e.closest('[role="status"]')?.getAttribute('aria-live'))).to.equal('polite')
    const looks: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/payment/status/')) looks.push(r.url())
    })
    await approveOnSimulatorPhone(browser, '0241235555')
    // No click on this page: the dialog's own watch finds the approval.
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful', { timeout: 30_000 })
    expect(await page.$eval('[data-testid="payment-status-text"]', (e) => e.textContent)).to.equal('Payment successful! Your data will be delivered shortly.')
    expect(await bodyText(page)).to.not.include('to finalize')
    expect(looks.length).to.be.greaterThan(0)
    expect(await page.$$('xpath/.//button[contains(., "I Have Paid")]')).to.have.length(0)
    // Final: the watch stops asking.
    const seen = looks.length
    await new Promise((r) => setTimeout(r, 4000))
    expect(looks.length).to.equal(seen)
    await clickButton(page, 'Complete Order')
    await waitText(page, 'Order placed successfully! Your data will be delivered shortly.')
  })

  it('a declined payment shows "Payment failed. You can retry the payment." and Retry keeps the form', async () => {
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201113333', payer: '0241230000' })
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0241230000'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    await clickButton(phone, 'Decline')
    await phone.waitForSelector('[data-testid="no-prompts"]')
    await checkPaidIfPending(page)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Failed')
    expect(await page.$eval('[data-testid="payment-status-text"]', (e) => e.textContent)).to.equal('Payment failed. You can retry the payment.')
    await clickButton(page, 'Retry Payment')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
    expect(await page.$eval('#recipient', (e) => (e as HTMLInputElement).value)).to.equal('0201113333')
  })

  it('a card-redirect purchase goes through the simulated checkout to /payment-callback and back to /buy', async () => {
    await app().services.settings.update({ paymentGateway: 'paystack' }, {})
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201114444', email: 'esi@example.com' })
    await Promise.all([page.waitForNavigation(), clickButton(page, 'Proceed to Payment', DIALOG)])
    expect(new URL(page.url()).pathname).to.equal('/simulator/checkout')
    await hydrated(page)
    await page.waitForSelector('[data-testid="checkout-amount"]')
    await Promise.all([page.waitForNavigation(), clickButton(page, 'Pay GH₵5.00')])
    const back = new URL(page.url())
    expect(back.pathname).to.equal('/payment-callback')
    expect(back.searchParams.get('reference')).to.equal(back.searchParams.get('trxref'))
    await waitText(page, 'Payment Successful')
    await page.waitForNavigation({ timeout: 10_000 })
    expect(new URL(page.url()).pathname).to.equal('/data-services')
    expect(((await app().db.models.Order.findOne({ raw: true })) as any).paymentStatus).to.equal('SUCCESS')
  })

  it('a cancelled card checkout lands on the failure screen with Try Again and Go Home', async () => {
    await app().services.settings.update({ paymentGateway: 'paystack' }, {})
    const page = await newPage(browser)
    await startPurchase(page, { recipient: '0201115555', email: 'esi@example.com' })
    await Promise.all([page.waitForNavigation(), clickButton(page, 'Proceed to Payment', DIALOG)])
    await hydrated(page)
    await page.waitForSelector('[data-testid="checkout-amount"]')
    await Promise.all([page.waitForNavigation(), clickButton(page, 'Cancel payment')])
    await page.waitForSelector('[data-testid="callback-error"]')
    const text = await bodyText(page)
    expect(text).to.include('Payment Failed').and.include('Try Again').and.include('Go Home')
    expect(await page.$eval('xpath///a[contains(., "Try Again")]', (a) => (a as HTMLAnchorElement).getAttribute('href'))).to.equal('/buy')
  })

  it('registers for AFA end to end: fee banner, payment, Complete Registration, back home', async () => {
    await app().services.settings.update({ afaRegistrationFee: 10 }, {})
    const page = await newPage(browser)
    await page.goto(url('/afa'))
    await hydrated(page)
    expect(await page.$eval('[data-testid="afa-fee"]', (e) => (e as HTMLElement).innerText)).to.include('GH₵10.00')
    await page.click('button[type="submit"]')
    await waitText(page, 'Please fill all fields')
    await page.type('#afa-name', 'Ama Mensah')
    await page.type('#afa-card', 'GHA-123456789-0')
    await page.type('#afa-phone', '0241112222')
    await page.type('#afa-payer-phone', '0241112222')
    await page.click('button[type="submit"]')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    const tid = ((await app().db.models.Payment.findOne({ raw: true })) as any).transactionId
    // The documented HTTP call (docs/payments.md) approves it, as a script would.
    expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
    await clickButton(page, 'I Have Paid')
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
    expect(await page.$eval('[data-testid="payment-status-text"]', (e) => e.textContent)).to.equal(
      'Payment successful! Your AFA registration is being processed.'
    )
    await clickButton(page, 'Complete Registration')
    await waitText(page, 'AFA registration completed successfully! We will process your application shortly.')
    expect(await page.$eval('#afa-name', (e) => (e as HTMLInputElement).value)).to.equal('')
    await page.waitForNavigation({ timeout: 10_000 })
    expect(new URL(page.url()).pathname).to.equal('/')
    const reg = (await app().db.models.AfaRegistration.findOne({ raw: true })) as any
    expect(reg).to.include({ fullName: 'Ama Mensah', ghCard: 'GHA-123456789-0', paymentStatus: 'SUCCESS', amountPesewas: 1000 })
  })

  it('an approved agent sees the agent price with what they save, and no payment email for card checkout', async () => {
    await app().services.settings.update({ paymentGateway: 'paystack' }, {})
    const pkg = await factories.createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 850, name: '2GB special' })
    const a: any = await factories.createAgent()
    const page = await newPage(browser, { width: 1024 })
    await login(page, a.user.email, a.password)
    await page.goto(url('/data-services'))
    await hydrated(page)
    const card = await page.$eval(`[data-testid="package-${pkg.id}"]`, (e) => (e as HTMLElement).innerText)
    expect(card).to.include('GH₵8.50').and.include('Save GH₵0.50')
    expect(await page.$('#email')).to.equal(null)
  })

  it('home shows its sections and the visitor message once per session; a closed platform disables purchases', async () => {
    await app().services.settings.update(
      { visitorMessageEnabled: true, visitorMessageTitle: 'Holiday hours', visitorMessageContent: 'We deliver until 8pm.', visitorMessageType: 'WARNING' },
      {}
    )
    const page = await newPage(browser)
    await page.goto(url('/'))
    await hydrated(page)
    const text = await bodyText(page)
    for (const t of ['Buy Data Now', 'Become an Agent', 'Lightning Fast', 'Best Prices', 'Bank-Grade Security', 'How It Works', 'My Orders'])
      expect(text).to.include(t)
    // A fresh shop makes no claim its orders do not support.
    expect(text).to.not.include('10,000+').and.not.include('99.9%')
    await page.waitForSelector('[data-testid="visitor-message"]')
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => !document.querySelector('[data-testid="visitor-message"]'))
    await page.reload()
    await hydrated(page)
    expect(await page.$('[data-testid="visitor-message"]')).to.equal(null)
    await app().services.settings.update({ visitorMessageTitle: 'New hours' }, {})
    await page.reload()
    await hydrated(page)
    await page.waitForSelector('[data-testid="visitor-message"]')

    // Phone width and dark theme: nothing wider than the screen, package cards on the dark surface.
    const dark = await newPage(browser)
    await dark.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    for (const path of ['/', '/data-services', '/data-services?tab=orders', '/afa', '/payment-callback']) {
      await dark.goto(url(path))
      await hydrated(dark)
      expect(await dark.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark')
      expect(await dark.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).to.equal(true)
    }
    await dark.goto(url('/data-services'))
    const bg = await dark.$eval('.sf-package', (e) => getComputedStyle(e).backgroundColor)
    const [r, g, b] = bg.match(/\d+/g)!.map(Number)
    expect(r! + g! + b!, bg).to.be.below(200)

    await app().services.settings.update({ platformOpen: false }, {})
    const res = await new Client().post('/api/orders', {
      packageId: await mtn1gb(),
      recipientNumber: '0201112222',
      payerPhone: '0241234567',
      payerNetwork: 'MTN'
    })
    expect(res.body.error).to.equal('Purchases are temporarily disabled')
  })
})
