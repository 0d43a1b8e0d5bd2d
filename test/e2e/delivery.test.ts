import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { ADMIN, app } from '../helpers/server.ts'
import { buyAndComplete, clickButton } from '../helpers/storefront.ts'

// Must-show journey: paid on the simulator phone, delivered by the simulator vendor by itself.
describe('browser: automatic delivery (simulator vendor)', function () {
  const browser = browserSuite(this, 90_000, 'each')
  before(async () => {
    // The test app runs no workers by default; this journey needs them, as after a fresh npm start.
    await app().services.queue.start({ pollInterval: 200 })
  })
  after(async () => {
    await app().services.queue.stop()
    // The simulator vendor lives as long as the test app, across files: leave it delivering, as it starts.
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })

  it('a visitor buys and pays; within 10 s My Orders shows Delivered with a reference, the admin sees it delivered and the SMS sent', async () => {
    const page = await newPage(browser)
    await buyAndComplete(browser, page, { recipient: '0201112222', payer: '0241234567' })
    const paidAt = Date.now()

    const [tab] = await page.$$('xpath///a[@role="tab" and contains(., "My Orders")]')
    await tab!.click()
    await page.type('#lookup-phone', '0201112222')
    // Look up again until the card says Delivered (a person pressing the button), at most 10 s.
    for (;;) {
      await clickButton(page, 'Look Up')
      await page.waitForSelector('[data-testid="order-card"]')
      const delivered = await page.$('[data-testid="order-card"] [data-delivery="DELIVERED"]')
      if (delivered) break
      if (Date.now() - paidAt > 10_000) throw new Error(`not delivered within 10 s: ${await bodyText(page)}`)
      await new Promise((r) => setTimeout(r, 500))
    }
    const card = await page.$eval('[data-testid="order-card"]', (e) => (e as HTMLElement).innerText)
    expect(card).to.include('Delivered')
    expect(await page.$eval('[data-testid="delivery-reference"]', (e) => e.textContent)).to.match(/^SIM-[0-9A-F]{8}$/)
    const api = (await (await fetch(url('/api/orders?phoneNumber=0201112222'))).json()) as any
    const order = (api.orders ?? api)[0]
    expect(order).to.include({ deliveryStatus: 'DELIVERED', delivered: true, deliveryAttempts: 1 })
    expect(order.deliveryReference).to.match(/^SIM-/)

    const admin = await newPage(browser, { width: 1280 })
    await login(admin, ADMIN.email, ADMIN.password)
    await admin.goto(url('/admin/orders'))
    await hydrated(admin)
    const cell = await admin.$eval('tr[data-order-id] [data-testid="delivery-cell"]', (e) => (e as HTMLElement).innerText)
    expect(cell).to.include('Delivered')
    expect(cell).to.include(order.deliveryReference)

    await admin.goto(url('/admin/sms'))
    await hydrated(admin)
    await admin.waitForSelector('tr[data-sms-id]')
    const rows = await admin.$$eval('tr[data-sms-id]', (trs) => trs.map((tr) => (tr as HTMLElement).innerText))
    const deliveredSms = rows.find((r) => r.includes('has been delivered'))
    expect(deliveredSms, rows.join('\n')).to.include('Logged (no SMS provider)')
  })

  it('the admin sees a failed delivery on the overview and retries it from the orders page', async () => {
    app().services.delivery.simulatorControl({ mode: 'fail', count: 5 })
    await app().services.settings.update({ deliveryRetryLimit: 1 }, {})
    const page = await newPage(browser)
    await buyAndComplete(browser, page, { recipient: '0201113333', payer: '0241234567' })
    const admin = await newPage(browser, { width: 1280 })
    await login(admin, ADMIN.email, ADMIN.password)
    await admin.waitForFunction(
      async () => {
        const r = await fetch('/api/delivery/overview')
        return (await r.json()).needsAttention === 1
      },
      { polling: 300, timeout: 10_000 }
    )
    await admin.goto(url('/admin/overview'))
    await hydrated(admin)
    await admin.waitForSelector('[data-testid="needs-attention"]')
    expect(await admin.$eval('[data-testid="needs-attention"]', (e) => e.textContent)).to.equal('1')
    app().services.delivery.simulatorControl({ mode: 'deliver' })
    await admin.goto(url('/admin/orders?deliveryStatus=FAILED'))
    await hydrated(admin)
    expect(await admin.$eval('[data-testid="delivery-cell"]', (e) => (e as HTMLElement).innerText)).to.include('Failed')
    await clickButton(admin, 'Retry delivery')
    await admin.waitForFunction(
      async () => {
        const r = await fetch('/api/orders?deliveryStatus=DELIVERED')
        return (await r.json()).orders.length === 1
      },
      { polling: 300, timeout: 10_000 }
    )
  })
})
