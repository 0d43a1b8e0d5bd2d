import { expect } from 'chai'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'puppeteer-core'
import { closeBrowser, hydrated, login, newPage, url, useBrowser } from '../helpers/browser.ts'
import { ADMIN } from '../helpers/server.ts'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const ADMIN_PAGES = [
  '/admin/overview', '/admin/orders', '/admin/agents', '/admin/afa', '/admin/users', '/admin/packages', '/admin/commissions', '/admin/ussd-whitelist',
  '/admin/commission-analytics', '/admin/agent-performance', '/admin/settings', '/admin/audit-logs', '/admin/messaging',
]
const PUBLIC_PAGES = ['/', '/data-services', '/data-services?tab=orders', '/afa', '/agent/register', '/login']

interface Violation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

/** axe-core run inside the page (WCAG 2.0/2.1 A and AA rules), as a screen-reader user's checklist. */
async function axe(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE })
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Violation[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }))
  })
}

const describeViolations = (vs: Violation[]) => vs.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`).join('\n')

export { axe, describeViolations }

describe('browser: accessibility (axe-core) of the public and admin pages, and 360 px layout', function () {
  this.timeout(300_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
  })
  after(closeBrowser)

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

  it('never scrolls sideways at 360 px on a public page', async () => {
    const page = await newPage(browser, { width: 360 })
    const wide: string[] = []
    for (const p of PUBLIC_PAGES) {
      await page.goto(url(p))
      await hydrated(page)
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
      if (scroll > client) wide.push(`${p}: ${scroll}px wide`)
    }
    expect(wide).to.deep.equal([])
    await page.browserContext().close()
  })
})
