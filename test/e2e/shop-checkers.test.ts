import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { approveOnSimulatorPhone, clickButton, waitText } from '../helpers/storefront.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

const SECTION = '//*[@data-testid="shop-checkers"]'

// A visitor on a 360 px phone buys result checkers in an agent's shop at the shop's price, the
// built-in payment simulator playing the gateway, and reads the cards on the shop page.
describe('browser: result checkers in an agent shop', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('the agent prices a checker in the shop settings; a visitor at 360 px buys 2 at the shop price, approves on the simulated phone and sees both cards', async () => {
    const productId = await checkerWithStock(await adminClient(), 4, { shopCeiling: 22 })
    const a = await createAgent({ email: 'kofi-shop@test.local' })
    const agent = new Client()
    await agent.login(a.user.email, a.password)
    expect(
      (await agent.put('/api/shops/mine', { slug: 'kofi-checkers', name: 'Kofi Checkers', description: '', whatsapp: '', accent: '#1565c0' })).status
    ).to.equal(200)
    // The agent prices the checker in the portal's shop settings: refused below the agent price, saved within the limits.
    const portal = await newPage(browser, { width: 1200 })
    await login(portal, a.user.email, a.password)
    await portal.goto(url('/agent/shop'))
    await hydrated(portal)
    const row = `[data-testid="checker-price-row-${productId}"]`
    await portal.click(`${row} input[type="checkbox"]`)
    await portal.click(`${row} input[type="number"]`, { count: 3 })
    await portal.type(`${row} input[type="number"]`, '17')
    await clickButton(portal, 'Save checker prices')
    await waitText(portal, 'below your agent price of GH₵18.00')
    await portal.click(`${row} input[type="number"]`, { count: 3 })
    await portal.type(`${row} input[type="number"]`, '21')
    await portal.waitForFunction((r) => document.querySelector(r)?.textContent?.includes('GH₵3.00'), {}, row)
    await clickButton(portal, 'Save checker prices')
    await waitText(portal, 'Prices saved')
    await portal.close()

    const page = await newPage(browser, { width: 360 })
    await page.goto(url('/shop/kofi-checkers'))
    await hydrated(page)
    await page.waitForSelector('[data-testid="shop-checkers"]')
    expect(await page.$eval('[data-testid="shop-checkers"]', (e) => (e as HTMLElement).innerText)).to.include('BECE checker · GH₵21.00')
    await page.click('#shop-checker-quantity', { count: 3 })
    await page.type('#shop-checker-quantity', '2')
    await page.waitForFunction(() => document.querySelector('[data-testid="checker-total"]')?.textContent === 'GH₵42.00')
    await page.type('#shop-checker-payer-phone', '0241237777')
    await clickButton(page, 'Pay', SECTION)
    await page.waitForSelector('[data-testid="shop-checkers"] [role="status"] strong')

    await approveOnSimulatorPhone(browser, '0241237777', 'GH₵42.00')
    await clickButton(page, 'show my cards', SECTION)
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="checker-card"]').length === 2)
    const cards = await page.$$eval('[data-testid="checker-card"]', (els) => els.map((e) => (e as HTMLElement).innerText))
    expect(cards[0]).to.include('S0001').and.include('9000000001')
    expect(cards[1]).to.include('S0002').and.include('9000000002')
    expect(await bodyText(page)).to.include('GH₵42.00')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)

    // The margin, (21 - 18) x 2, is the agent's.
    expect((await agent.get('/api/wallet/earnings')).body.available).to.equal(6)
  })
})
