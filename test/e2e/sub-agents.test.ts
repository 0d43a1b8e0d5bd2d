import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent } from '../helpers/factories.ts'
import { app } from '../helpers/server.ts'
import { clickButton, mtn1gb, waitText } from '../helpers/storefront.ts'

// Dealer tiers (ADR 0041): a dealer on a 360 px phone in dark mode shares its invite link and sets what its
// sub-agents pay; the server refuses a price below its own, and the sub-agent pays the saved price.
describe('browser: sub-agent prices', function () {
  const browser = browserSuite(this, 120_000, 'once')

  it('a dealer at 360 px edits its sub-agents price: refused below its own price, saved inside, and charged to the sub-agent', async () => {
    const q = (sql: string, replacements: Record<string, unknown> = {}) => app().db.sequelize.query<any>(sql, { replacements, type: QueryTypes.SELECT })
    const [dealerTier] = await q(`INSERT INTO tiers (name, position, may_invite) VALUES ('Agent', 0, false), ('Dealer', 1, true) RETURNING id`).then((rows) =>
      rows.slice(1)
    )
    const pkgId = await mtn1gb() // GH₵5.00, no agent price: the dealer's own price GH₵5.00, maximum GH₵6.00 at 20 %
    const dealer = await createAgent({ phone: '0245551001', name: 'Kwesi Dealer' })
    const sub = await createAgent({ phone: '0245551002', name: 'Abena Sub' })
    await q('UPDATE agents SET tier_id = :tier WHERE id = :id RETURNING id', { tier: dealerTier.id, id: dealer.agent.id })
    await q('UPDATE agents SET parent_agent_id = :p WHERE id = :id RETURNING id', { p: dealer.agent.id, id: sub.agent.id })

    const page = await newPage(browser)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await login(page, dealer.user.email, dealer.password)
    await page.goto(url('/agent/sub-agents'))
    await hydrated(page)
    expect(await page.$eval('[data-testid="invite-link"]', (e) => (e as HTMLInputElement).value)).to.match(/\/agent\/register\?ref=[a-z2-9]{10}$/)
    expect(await bodyText(page)).to.include('Abena Sub')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)

    const input = `[data-testid="sub-price-row-${pkgId}"] input`
    await page.click(input, { count: 3 })
    await page.type(input, '4.90')
    expect(await page.$eval(`[data-testid="sub-price-row-${pkgId}"]`, (e) => e.textContent)).to.include('Out of range')
    await clickButton(page, 'Save prices')
    await page.waitForSelector('[data-testid="sub-prices-error"]')
    expect(await page.$eval('[data-testid="sub-prices-error"]', (e) => e.textContent)).to.include('below your own price of GH₵5.00')

    await page.click(input, { count: 3 })
    await page.type(input, '5.40')
    await page.waitForFunction((r) => document.querySelector(r)?.textContent?.includes('GH₵0.40'), {}, `[data-testid="sub-price-row-${pkgId}"]`)
    await clickButton(page, 'Save prices')
    await waitText(page, 'Prices saved')

    const actor = await app().services.auth.loadActor(sub.user.id)
    const pkg = await app().services.packages.getActive(pkgId)
    expect((await app().services.pricing.priceFor(actor, pkg!)).pricePesewas).to.equal(540)
  })
})
