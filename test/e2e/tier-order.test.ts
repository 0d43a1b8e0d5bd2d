import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { axe, describeViolations } from '../helpers/axe.ts'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { ADMIN } from '../helpers/server.ts'
import { q, seedTiers } from '../helpers/tiers.ts'

// The admin reorders tiers from the keyboard on a 360 px phone in dark mode (ADR 0041).
describe('browser: reordering tiers', function () {
  const browser = browserSuite(this, 120_000, 'once')
  before(seedTiers)

  const titles = (page: Page) =>
    page.$$eval('form[data-testid^="tier-"]:not([data-testid="tier-new"]) h2', (hs) => hs.map((h) => h.firstChild?.textContent ?? ''))

  it('moves a tier up with the keyboard: the list, the database and the screen-reader announcement follow, focus stays on the tier', async () => {
    const page = await newPage(browser)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await page.setBypassCSP(true) // axe is injected as a script of the test's own
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/tiers'))
    await hydrated(page)
    expect(await titles(page)).to.deep.equal(['1. Agent', '2. Super agent', '3. Dealer', '4. Super dealer'])
    expect(await page.$eval('[aria-label="Move Agent up"]', (b) => (b as HTMLButtonElement).disabled)).to.equal(true)
    expect(await page.$eval('[aria-label="Move Super dealer down"]', (b) => (b as HTMLButtonElement).disabled)).to.equal(true)

    await page.focus('[aria-label="Move Dealer up"]')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelector('[aria-live="polite"]')?.textContent === 'Dealer is now number 2 of 4')
    expect(await titles(page)).to.deep.equal(['1. Agent', '2. Dealer', '3. Super agent', '4. Super dealer'])
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move Dealer up')
    // Enter again on the same focused button: Dealer above Agent, and first now, so focus moves to its Down button.
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelector('[aria-live="polite"]')?.textContent === 'Dealer is now number 1 of 4')
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move Dealer down')
    const rows = await q<{ name: string }>('SELECT name FROM tiers ORDER BY position')
    expect(rows.map((r) => r.name)).to.deep.equal(['Dealer', 'Agent', 'Super agent', 'Super dealer'])

    expect(await bodyText(page)).to.include('pays the price of the tier above it')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
    const violations = await axe(page)
    expect(violations, describeViolations(violations)).to.have.length(0)
  })

  it("shows each agent's tier and the parent-margins figure on Agent Performance", async () => {
    const dealer = await createAgent({ phone: '0245561001', name: 'Kwesi Dealer' })
    const [tier] = await q<{ id: number }>(`SELECT id FROM tiers WHERE name = 'Super dealer'`)
    await q('UPDATE agents SET tier_id = :t WHERE id = :id RETURNING id', { t: tier!.id, id: dealer.agent.id })
    await createOrder({ agentId: dealer.agent.id, userId: dealer.user.id, paymentStatus: 'SUCCESS', amountPesewas: 700 })
    const page = await newPage(browser)
    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/agent-performance'))
    await hydrated(page)
    const row = await page.$eval('[data-testid="leaderboard"] tbody tr', (tr) =>
      [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())
    )
    expect(row.slice(1, 4)).to.deep.equal(['Kwesi Dealer\n0245561001', 'Super dealer', '1'])
    expect(row[6]).to.equal('GH₵0.00')
    expect(await page.$eval('[data-stat="parent-margins"] .stat-value', (e) => e.textContent)).to.equal('GH₵0.00')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
  })
})
