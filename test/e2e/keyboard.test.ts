import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { ADMIN, app } from '../helpers/server.ts'
import { mtn1gb, waitText } from '../helpers/storefront.ts'

// The buy journey by keyboard alone (page.keyboard only, no mouse events), checking
// where focus is at each step: into the dialog on open, kept inside it, back out on close.

/** What has focus, described: `#id`, or `button:Text`, or `radio:value`, plus whether it is in the dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null
    if (!a || a === document.body) return { at: 'body', inDialog: false }
    const inDialog = !!a.closest('[data-testid="payment-dialog"]')
    if (a.id) return { at: `#${a.id}`, inDialog }
    if (a instanceof HTMLInputElement && a.type === 'radio') return { at: `radio:${a.value}`, inDialog }
    return { at: `${a.tagName.toLowerCase()}:${(a.getAttribute('aria-label') || a.textContent || '').trim()}`, inDialog }
  })

/** Presses Tab (or Shift+Tab) until focus is on `target`, failing after `max` presses. */
async function tabTo(page: Page, target: string | RegExp, opts: { max?: number; back?: boolean } = {}) {
  for (let i = 0; i < (opts.max ?? 30); i++) {
    const at = (await focused(page)).at
    if (typeof target === 'string' ? at === target : target.test(at)) return
    if (opts.back) await page.keyboard.down('Shift')
    await page.keyboard.press('Tab')
    if (opts.back) await page.keyboard.up('Shift')
  }
  throw new Error(`Tab never reached ${target}; focus is on ${(await focused(page)).at}`)
}

describe('browser: keyboard-only buy journey', function () {
  const browser = browserSuite(this, 90_000, 'each')

  it('buys 1GB MTN with Tab, arrows, Enter and Escape; focus moves into the dialog, stays there and comes back', async () => {
    const page = await newPage(browser)
    let mouse = 0
    await page.exposeFunction('__mouse', () => {
      mouse++
    })
    await page.evaluateOnNewDocument(() => {
      for (const t of ['mousedown', 'mouseup', 'click', 'pointerdown']) {
        document.addEventListener(
          t,
          (e) => {
            if ((e as MouseEvent).detail > 0 || (e as PointerEvent).pointerType === 'mouse') (window as any).__mouse()
          },
          true
        )
      }
    })
    await page.goto(url('/data-services'))
    await hydrated(page)
    const pkg = String(await mtn1gb())

    // Network: the tabs take one Tab stop; the arrows move between them, MTN is back after a round.
    await tabTo(page, '#tab-MTN', { max: 40 })
    for (const key of ['ArrowRight', 'ArrowLeft'] as const) await page.keyboard.press(key)
    expect((await focused(page)).at).to.equal('#tab-MTN')
    expect(await page.$eval('[aria-label="Network"] [aria-selected="true"]', (e) => e.textContent)).to.equal('MTN')
    // Package: Tab into the radio group, arrows to 1GB, Enter selects (and does not submit).
    await tabTo(page, /^radio:/, { max: 5 })
    for (let i = 0; i < 12 && (await focused(page)).at !== `radio:${pkg}`; i++) await page.keyboard.press('ArrowRight')
    expect((await focused(page)).at).to.equal(`radio:${pkg}`)
    await page.keyboard.press('Enter')
    await page.waitForSelector(`[data-testid="package-${pkg}"].is-selected`)
    expect(await page.$('[data-testid="payment-dialog"]')).to.equal(null)

    await tabTo(page, '#recipient')
    await page.keyboard.type('0201117777')
    await tabTo(page, '#buy-payer-phone')
    await page.keyboard.type('0241236666')
    await tabTo(page, 'button:Proceed to Payment')

    // Open: focus moves in. Escape: closed, focus back on the button that opened it.
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    expect(await focused(page)).to.deep.equal({ at: 'button:Close', inDialog: true })
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
    expect((await focused(page)).at).to.equal('button:Proceed to Payment')

    // Again; Tab and Shift+Tab go round inside the dialog and never leave it.
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      expect((await focused(page)).inDialog, `Tab ${i + 1}`).to.equal(true)
    }
    await tabTo(page, 'button:Close', { back: true })
    await page.keyboard.down('Shift')
    await page.keyboard.press('Tab')
    await page.keyboard.up('Shift')
    expect(await focused(page)).to.deep.equal({ at: 'button:Proceed to Payment', inDialog: true })

    // Pay: once the request is made, focus lands on I Have Paid (the button pressed is gone).
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
    await page.waitForFunction(() => document.activeElement?.textContent === 'I Have Paid')
    const tid = ((await app().db.models.Payment.findOne({ raw: true })) as any).transactionId
    await app().services.simulator.approve(tid)
    // The dialog's own watch sees it; focus moves to Complete Order.
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful', { timeout: 30_000 })
    await page.waitForFunction(() => document.activeElement?.textContent === 'Complete Order')
    expect((await focused(page)).inDialog).to.equal(true)
    await page.keyboard.press('Enter')
    await waitText(page, 'Order placed successfully! Your data will be delivered shortly.')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
    // The form was reset (its button is disabled now): focus goes back to the form, not the page top.
    expect(await page.evaluate(() => !!document.activeElement?.closest('form'))).to.equal(true)
    const order = (await app().db.models.Order.findOne({ raw: true })) as any
    expect(order).to.include({ paymentStatus: 'SUCCESS', recipientNumber: '0201117777' })
    expect(mouse, 'mouse events').to.equal(0)
  })

  it('at 360 px the menu and the portal drawer say truthfully whether they are open, and a tap outside closes them', async () => {
    const page = await newPage(browser, { width: 360, height: 740 })
    await page.goto(url('/'))
    await hydrated(page)
    const burger = '.navbar-burger'
    expect(await page.$eval(burger, (e) => e.getAttribute('aria-expanded'))).to.equal('false')
    await page.tap(burger)
    expect(await page.$eval(burger, (e) => e.getAttribute('aria-expanded'))).to.equal('true')
    expect(await page.$eval('#main-menu', (e) => getComputedStyle(e).display)).to.not.equal('none')
    await page.touchscreen.tap(180, 700)
    await page.waitForFunction((b) => document.querySelector(b)?.getAttribute('aria-expanded') === 'false', {}, burger)

    await login(page, ADMIN.email, ADMIN.password)
    await page.goto(url('/admin/overview'))
    await hydrated(page)
    const toggle = '[data-testid="sidebar-toggle"]'
    await page.waitForFunction((t) => document.querySelector(t)?.getAttribute('aria-expanded') === 'false', {}, toggle)
    expect(await page.$eval('#portal-sidebar', (e) => getComputedStyle(e).display)).to.equal('none')
    await page.tap(toggle)
    expect(await page.$eval(toggle, (e) => e.getAttribute('aria-expanded'))).to.equal('true')
    expect(await page.$eval('#portal-sidebar', (e) => getComputedStyle(e).display)).to.not.equal('none')
    // A tap inside the drawer leaves it open; one outside it closes it.
    // (The 'Signed in' toast may sit over the drawer's top: away with it first, inside the drawer.)
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('.toast-area')) e.remove()
    })
    await page.tap('#portal-sidebar .title')
    expect(await page.$eval(toggle, (e) => e.getAttribute('aria-expanded'))).to.equal('true')
    await page.touchscreen.tap(350, 600)
    await page.waitForFunction((t) => document.querySelector(t)?.getAttribute('aria-expanded') === 'false', {}, toggle)
    expect(await page.$eval('#portal-sidebar', (e) => getComputedStyle(e).display)).to.equal('none')
  })
})
