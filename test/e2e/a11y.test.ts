import { expect } from 'chai'
import { axe, describeViolations } from '../helpers/axe.ts'
import { hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent, createCommission, createOrder } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN, app } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

const ADMIN_PAGES = [
  '/admin/overview',
  '/admin/orders',
  '/admin/agents',
  '/admin/afa',
  '/admin/users',
  '/admin/packages',
  '/admin/commissions',
  '/admin/ussd-whitelist',
  '/admin/commission-analytics',
  '/admin/agent-performance',
  '/admin/settings',
  '/admin/audit-logs',
  '/admin/messaging',
  // Shops
  '/admin/shops',
  // Payouts
  '/admin/payouts',
  '/admin/bulk-orders',
  '/admin/checkers',
  // The WhatsApp simulator is for admins outside development.
  '/simulator/whatsapp'
]
const AGENT_PAGES = [
  '/agent/dashboard',
  '/agent/orders',
  '/agent/place-order',
  '/agent/packages',
  '/agent/wallet',
  '/agent/profile',
  '/agent/payment',
  // Shops
  '/agent/shop',
  // Payouts
  '/agent/payouts',
  '/agent/bulk'
]
const SIMULATOR_PAGES = ['/simulator/phone?phone=0241234567', '/simulator/checkout']
const PUBLIC_PAGES = [
  '/',
  '/data-services',
  '/data-services?tab=orders',
  '/afa',
  '/agent/register',
  '/login',
  // An agent's shop, made in before()
  '/shop/ama-axe-data',
  '/shop/ama-axe-data?tab=orders',
  '/checkers',
  '/checkers/mine'
]

describe('browser: accessibility (axe-core) of every page, and 360 px layout', function () {
  const browser = browserSuite(this, 600_000, 'once')
  let agent: { email: string; password: string }
  before(async () => {
    // An approved agent with an order and a commission, so the agent and admin tables have rows.
    const a = await createAgent({ phone: '0245550101', name: 'Ama Axe' })
    agent = { email: a.user.email, password: a.password }
    const order = await createOrder({ agentId: a.agent.id, userId: a.user.id, paymentStatus: 'SUCCESS', recipientNumber: '0201230000' })
    await createCommission({ agentId: a.agent.id, orderId: order.id })
    await app().services.sms.send('0245550101', 'Your 1GB MTN bundle for 0201230000 was delivered.')
    // The agent's shop with every bundle at its ceiling (public page, /agent/shop, /admin/shops).
    const actor = await app().services.auth.loadActor(a.user.id)
    await app().services.shops.saveMine(
      { slug: 'ama-axe-data', name: 'Ama Axe Data', description: 'Bundles for every network', whatsapp: '0245550101', accent: '#6a1b9a' },
      { user: actor }
    )
    const { prices } = await app().services.shops.mine({ user: actor })
    await app().services.shops.setPrices({ prices: prices.map((l) => ({ packageId: l.packageId, price: l.ceiling })) }, { user: actor })
    // A checker on sale, so /checkers shows its form and /admin/checkers its tables; the shop sells it too.
    const productId = await checkerWithStock(await adminClient(), 2)
    await app().services.shopCheckers.setPrices({ prices: [{ productId, price: 20 }] }, { user: actor })
  })

  /** axe over `pages` signed in as `who` (or not), at `width`, in `theme`. */
  async function axeOver(pages: string[], theme: 'light' | 'dark', who: { email: string; password: string } | null, width?: number, extraRules: string[] = []) {
    const page = await newPage(browser, width ? { width } : {})
    await page.setBypassCSP(true) // axe is injected as a script of the test's own
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }])
    if (who) await login(page, who.email, who.password)
    const found: string[] = []
    for (const p of pages) {
      await page.goto(url(p))
      await hydrated(page)
      await page.waitForNetworkIdle({ idleTime: 300, timeout: 4000 }).catch(() => undefined)
      expect(await page.evaluate(() => document.documentElement.dataset.theme), p).to.equal(theme)
      const vs = await axe(page, extraRules)
      if (vs.length) found.push(`${p}:\n${describeViolations(vs)}`)
    }
    await page.browserContext().close()
    return found
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`has no axe violations on any agent portal page in the ${theme} theme`, async () => {
      const found = await axeOver(AGENT_PAGES, theme, agent, 1200)
      expect(found, found.join('\n\n')).to.deep.equal([])
    })
    it(`has no axe violations on the simulator pages in the ${theme} theme`, async () => {
      // A page without a top-level heading leaves a screen-reader user no landmark to jump to.
      const found = await axeOver(SIMULATOR_PAGES, theme, null, undefined, ['page-has-heading-one'])
      expect(found, found.join('\n\n')).to.deep.equal([])
    })
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`has no axe violations on any public page in the ${theme} theme`, async () => {
      const page = await newPage(browser)
      await page.setBypassCSP(true) // axe is injected as a script of the test's own
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }])
      const found: string[] = []
      for (const p of PUBLIC_PAGES) {
        await page.goto(url(p))
        await hydrated(page)
        expect(await page.evaluate(() => document.documentElement.dataset.theme), p).to.equal(theme)
        const vs = await axe(page)
        if (vs.length) found.push(`${p}:\n${describeViolations(vs)}`)
      }
      expect(found, found.join('\n\n')).to.deep.equal([])
      await page.browserContext().close()
    })
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`has no axe violations on any admin page in the ${theme} theme`, async () => {
      const page = await newPage(browser, { width: 1200 })
      await page.setBypassCSP(true)
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }])
      await login(page, ADMIN.email, ADMIN.password)
      const found: string[] = []
      for (const p of ADMIN_PAGES) {
        await page.goto(url(p))
        await hydrated(page)
        // Lists load after hydration: let them land before checking.
        await page.waitForNetworkIdle({ idleTime: 300, timeout: 4000 }).catch(() => undefined)
        const vs = await axe(page)
        if (vs.length) found.push(`${p}:\n${describeViolations(vs)}`)
      }
      expect(found, found.join('\n\n')).to.deep.equal([])
      await page.browserContext().close()
    })
  }

  it('would catch a violation (the check itself works)', async () => {
    const page = await newPage(browser)
    await page.setBypassCSP(true)
    await page.goto(url('/login'))
    await hydrated(page)
    await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<img src="/icons/icon.svg">'))
    expect((await axe(page)).map((v) => v.id)).to.include('image-alt')
    await page.browserContext().close()
  })

  /** Pages wider than the 360 px screen (the document scrolls sideways). */
  async function wideAt360(pages: string[], who: { email: string; password: string } | null) {
    const page = await newPage(browser, { width: 360 })
    if (who) await login(page, who.email, who.password)
    const wide: string[] = []
    for (const p of pages) {
      await page.goto(url(p))
      await hydrated(page)
      await page.waitForNetworkIdle({ idleTime: 300, timeout: 4000 }).catch(() => undefined)
      const { scroll, client, culprit } = await page.evaluate(() => {
        const client = document.documentElement.clientWidth
        // The first element reaching past the screen's right edge, to say what to fix.
        const el = [...document.body.querySelectorAll<HTMLElement>('*')].find(
          (e) => e.getBoundingClientRect().right > client + 1 && !e.closest('.table-container')
        )
        const culprit = el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : ''
        return { scroll: document.documentElement.scrollWidth, client, culprit }
      })
      if (scroll > client) wide.push(`${p}: ${scroll}px wide (${culprit})`)
    }
    await page.browserContext().close()
    return wide
  }

  it('never scrolls sideways at 360 px on any page: public, agent, admin, simulator', async () => {
    const wide = [
      ...(await wideAt360([...PUBLIC_PAGES, ...SIMULATOR_PAGES], null)),
      ...(await wideAt360(AGENT_PAGES, agent)),
      ...(await wideAt360(ADMIN_PAGES, ADMIN))
    ]
    expect(wide).to.deep.equal([])
  })

  it('shows wide tables as cards at 360 px: every cell of a row, status and date included, is on screen and labelled', async () => {
    const offScreen: string[] = []
    for (const [who, pages] of [
      [agent, ['/agent/orders', '/agent/wallet']],
      [ADMIN, ['/admin/orders', '/admin/agents', '/admin/commissions', '/admin/audit-logs', '/admin/sms']]
    ] as const) {
      const page = await newPage(browser, { width: 360 })
      await login(page, who.email, who.password)
      for (const p of pages) {
        await page.goto(url(p))
        await hydrated(page)
        await page.waitForNetworkIdle({ idleTime: 300, timeout: 4000 }).catch(() => undefined)
        const cells = await page.$$eval('table.is-stacked-mobile tbody tr:first-child td[data-label]', (tds) =>
          tds.map((td) => ({ label: td.getAttribute('data-label'), right: td.getBoundingClientRect().right, shown: getComputedStyle(td, '::before').content }))
        )
        if (p !== '/agent/wallet' && cells.length === 0) offScreen.push(`${p}: no labelled row`)
        for (const c of cells) {
          if (c.right > 360) offScreen.push(`${p}: ${c.label} ends at ${Math.round(c.right)}px`)
          if (c.shown !== `"${c.label}"`) offScreen.push(`${p}: ${c.label} shows no label`)
        }
      }
      await page.browserContext().close()
    }
    expect(offScreen).to.deep.equal([])
  })
})
