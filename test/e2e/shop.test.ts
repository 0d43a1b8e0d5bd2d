import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent } from '../helpers/factories.ts'
import { app } from '../helpers/server.ts'
import { checkPaidIfPending, clickButton, DIALOG, dismissToasts, mtn1gb, waitText } from '../helpers/storefront.ts'

// An agent opens a shop and prices a bundle in /agent/shop; a visitor on a 360 px phone buys
// there at the shop's price (confirming a price the agent changed meanwhile) and finds the order.
describe('browser: agent shop', function () {
  const browser = browserSuite(this, 120_000, 'once')

  it('agent edits the shop in /agent/shop; a visitor at 360 px buys at its price, confirms a changed price, and sees the order in lookup', async () => {
    const a = await createAgent({ phone: '0245550202', name: 'Efua Shop' })
    const pkgId = await mtn1gb() // GH₵5.00, no agent price: floor GH₵5.00, ceiling GH₵6.00 at 20 %
    const agentPage = await newPage(browser, { width: 1200 })
    await login(agentPage, a.user.email, a.password)
    await agentPage.goto(url('/agent/shop'))
    await hydrated(agentPage)
    await agentPage.type('#shop-slug', 'efua-data')
    await agentPage.type('#shop-name', 'Efua Data')
    await agentPage.type('#shop-description', 'Fast bundles from Efua')
    await agentPage.type('#shop-whatsapp', '0245550202')
    await clickButton(agentPage, 'Open my shop')
    await waitText(agentPage, 'Shop saved')
    expect(await agentPage.$eval('[data-testid="shop-link"]', (e) => e.textContent)).to.match(/\/shop\/efua-data$/)
    // the prices editor: sell MTN 1GB at GH₵5.50, its margin shows as typed
    const row = `[data-testid="price-row-${pkgId}"]`
    await agentPage.click(`${row} input[type="checkbox"]`)
    await agentPage.click(`${row} input[type="number"]`, { count: 3 })
    await agentPage.type(`${row} input[type="number"]`, '5.50')
    await agentPage.waitForFunction((r) => document.querySelector(r)?.textContent?.includes('GH₵0.50'), {}, row)
    await clickButton(agentPage, 'Save prices')
    await waitText(agentPage, 'Prices saved')
    // after a reload the QR code of the link is there, and the share button carries the link
    await agentPage.reload()
    await hydrated(agentPage)
    await agentPage.waitForSelector('.shop-qr svg')
    const share = await agentPage.$eval('a[href^="https://wa.me/?text="]', (e) => decodeURIComponent((e as HTMLAnchorElement).href))
    expect(share).to.include('/shop/efua-data')

    // the visitor, on a phone
    const page = await newPage(browser)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await page.goto(url('/shop/efua-data'))
    await hydrated(page)
    expect(await bodyText(page))
      .to.include('Efua Data')
      .and.include('Fast bundles from Efua')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
    await page.click(`[data-testid="package-${pkgId}"]`)
    await page.type('#recipient', '0201112222')
    await page.type('#buy-payer-phone', '0241239999')
    await page.click('form button[type="submit"]')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    expect(await page.$eval('[data-testid="payment-amount"]', (e) => e.textContent)).to.equal('GH₵5.50')

    // the agent lowers the price while the visitor looks at the dialog: nothing is charged, the new price is shown
    const actor = await app().services.auth.loadActor(a.user.id)
    await app().services.shops.setPrices({ prices: [{ packageId: pkgId, price: 5.4 }] }, { user: actor })
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForSelector('[data-testid="price-changed"]')
    expect(await page.$eval('[data-testid="price-changed"]', (e) => e.textContent)).to.include('GH₵5.40')
    expect(await page.$eval('[data-testid="payment-amount"]', (e) => e.textContent)).to.equal('GH₵5.40')
    expect(await app().db.models.Order.count()).to.equal(0)
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')

    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0241239999'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    expect(await bodyText(phone)).to.include('Pay GH₵5.40')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')
    await checkPaidIfPending(page)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
    await clickButton(page, 'Complete Order')
    await waitText(page, 'Order placed successfully! Your data will be delivered shortly.')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
    await dismissToasts(page)

    const [tab] = await page.$$('xpath///a[@role="tab" and contains(., "My Orders")]')
    await tab!.click()
    await page.type('#lookup-phone', '0241239999')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="order-card"]')
    const card = await page.$eval('[data-testid="order-card"]', (e) => (e as HTMLElement).innerText)
    expect(card).to.include('Successful').and.include('GH₵5.40').and.include('0201112222')
    const order = (await app().db.models.Order.findOne({ raw: true })) as any
    expect(order).to.include({ paymentStatus: 'SUCCESS', amountPesewas: 540, agentId: null })
    expect(Number(order.shopMarginPesewas)).to.equal(40)
  })

  it("a card purchase in a shop goes through the checkout at the shop's price and comes back to the shop", async () => {
    await app().services.settings.update({ paymentGateway: 'paystack' }, {})
    try {
      const a = await createAgent({ phone: '0245550303', name: 'Kwame Card' })
      const pkgId = await mtn1gb()
      const actor = await app().services.auth.loadActor(a.user.id)
      await app().services.shops.saveMine({ slug: 'kwame-card', name: 'Kwame Card Shop' }, { user: actor })
      await app().services.shops.setPrices({ prices: [{ packageId: pkgId, price: 5.25 }] }, { user: actor })
      const page = await newPage(browser)
      await page.goto(url('/shop/kwame-card'))
      await hydrated(page)
      await page.click(`[data-testid="package-${pkgId}"]`)
      await page.type('#recipient', '0201116666')
      await page.type('#email', 'kojo@example.com')
      await page.click('form button[type="submit"]')
      await page.waitForSelector('[data-testid="payment-dialog"]')
      await Promise.all([page.waitForNavigation(), clickButton(page, 'Proceed to Payment', DIALOG)])
      expect(new URL(page.url()).pathname).to.equal('/simulator/checkout')
      await hydrated(page)
      await page.waitForSelector('[data-testid="checkout-amount"]')
      await Promise.all([page.waitForNavigation(), clickButton(page, 'Pay GH₵5.25')])
      expect(new URL(page.url()).pathname).to.equal('/payment-callback')
      await waitText(page, 'Payment Successful')
      await page.waitForNavigation({ timeout: 10_000 })
      expect(new URL(page.url()).pathname).to.equal('/shop/kwame-card')
      const order = (await app().db.models.Order.findOne({ where: { recipientNumber: '0201116666' }, raw: true })) as any
      expect(order).to.include({ paymentStatus: 'SUCCESS', amountPesewas: 525 })
    } finally {
      await app().services.settings.update({ paymentGateway: 'ussd' }, {})
    }
  })
})
