import { expect } from 'chai'
import type { Browser, Page } from 'puppeteer-core'
import { closeBrowser, hydrated, newPage, url, useBrowser } from '../helpers/browser.ts'
import { resetDb } from '../helpers/server.ts'

/** An element the page added: in which turn of the browser's (a run of JavaScript until its microtasks), where and what. */
interface Added {
  turn: number
  into: 'head' | 'body' | 'other'
  what: string
}

declare global {
  interface Window {
    /** Every script and modulepreload added to the page, in order. */
    added?: Added[]
  }
}

/**
 * Notes every script and modulepreload the page adds, numbering the browser's turns: a turn starts at the first addition
 * after the microtasks of the previous one ran, so two additions with one number were made by one task.
 */
async function notingAdditions(browser: Browser): Promise<Page> {
  const page = await newPage(browser)
  await page.evaluateOnNewDocument(() => {
    const added: Added[] = []
    window.added = added
    let turn = 0
    let open = false
    const appendChild = Node.prototype.appendChild
    Node.prototype.appendChild = function <T extends Node>(this: Node, node: T): T {
      const el = node as unknown as Element
      const isScript = el.nodeName === 'SCRIPT' && el.hasAttribute('src')
      const isPreload = el.nodeName === 'LINK' && el.getAttribute('rel') === 'modulepreload'
      if (isScript || isPreload) {
        if (!open) {
          turn++
          open = true
          queueMicrotask(() => {
            open = false
          })
        }
        const into = this === document.head ? 'head' : this === document.body ? 'body' : 'other'
        added.push({ turn, into, what: `${el.nodeName} ${el.getAttribute('src') ?? el.getAttribute('href')}` })
      }
      return appendChild.call(this, node) as T
    }
  })
  return page
}

const turns = (added: Added[]) => new Set(added.map((a) => a.turn)).size

// No task after the first paint should be long enough for a busy phone to stretch it past 50 ms (ADR 0044): adding a
// script or a modulepreload costs the browser a few ms on a slow phone, so the page adds them one task at a time.
describe('browser: the page adds its scripts and the later parts their code, one task at a time', function () {
  this.timeout(120_000)
  let browser: Browser
  before(async function () {
    browser = await useBrowser(this)
    await resetDb()
  })
  after(closeBrowser)

  for (const path of ['/data-services', '/']) {
    it(`${path}: the inline start adds Vike's entry, then each modulepreload in a task of its own, and the page hydrates`, async () => {
      const page = await notingAdditions(browser)
      await page.goto(url(path), { waitUntil: 'load' })
      await hydrated(page)
      const start = (await page.evaluate(() => window.added!)).filter((a) => a.into === 'body')
      expect(start.length, 'the entry and its modulepreloads').to.be.above(3)
      expect(start[0]!.what).to.match(/^SCRIPT \/assets\/entries\/entry-/)
      expect(turns(start), start.map((a) => `${a.turn} ${a.what}`).join('\n')).to.equal(start.length)
      await page.close()
    })
  }

  it('/data-services: the later parts (My Orders, the saved orders) ask for their code in separate tasks, and My Orders answers', async () => {
    const page = await notingAdditions(browser)
    await page.goto(url('/data-services'), { waitUntil: 'load' })
    await hydrated(page)
    // The start's own additions are in the body; an import's modulepreloads go into the head (Vite's preload helper).
    const parts = (await page.evaluate(() => window.added!)).filter((a) => a.into === 'head')
    expect(parts.length, 'the parts asked for their code').to.be.above(1)
    expect(turns(parts), parts.map((a) => `${a.turn} ${a.what}`).join('\n')).to.be.above(1)
    // The parts' code works: the My Orders tab renders its lookup, which answers.
    await page.click('#tab-orders')
    await page.waitForSelector('#lookup-phone')
    await page.type('#lookup-phone', '0209990000')
    await page.click('form[role="search"] button[type="submit"]')
    await page.waitForSelector('[data-testid="orders-empty"]')
    await page.close()
  })
})
