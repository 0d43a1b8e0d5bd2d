import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { app } from './server.ts'

export function chromePath(): string | null {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean) as string[]
  return candidates.find((p) => fs.existsSync(p)) ?? null
}

let browser: Browser | undefined

/**
 * Call in a describe's before(): skips the suite (loudly) when no browser is installed,
 * and fails instead when CI=true, where a missing browser is a broken machine.
 */
export async function useBrowser(ctx: Mocha.Context): Promise<Browser> {
  const exe = chromePath()
  if (!exe) {
    if (process.env.CI === 'true') throw new Error('No Chromium found (CHROME_PATH or /usr/bin/chromium) and CI=true: browser tests cannot be skipped in CI')
    console.warn('\n  !!! BROWSER TESTS SKIPPED: no Chromium found. Install Debian chromium or set CHROME_PATH. !!!\n')
    ctx.skip()
  }
  if (browser?.connected) return browser
  browser = await puppeteer.launch({
    executablePath: exe!,
    headless: true,
    userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-chrome-')),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync'
    ]
  })
  return browser
}

export async function closeBrowser() {
  await browser?.close()
  browser = undefined
}

/** A fresh incognito-like context and page, phone-sized unless told otherwise. */
export async function newPage(b: Browser, opts: { width?: number; height?: number } = {}): Promise<Page> {
  const context = await b.createBrowserContext()
  const page = await context.newPage()
  await page.setViewport({ width: opts.width ?? 360, height: opts.height ?? 780 })
  page.setDefaultTimeout(15_000)
  return page
}

export const url = (p: string) => app().url + p

/** Waits until React has hydrated the page (set by renderer/+onRenderClient). */
export async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated="true"]')
}

export async function login(page: Page, email: string, password: string) {
  await page.goto(url('/login'))
  await hydrated(page)
  await page.type('#email', email)
  await page.type('#password', password)
  await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')])
}

/** Visible text of the page body. */
export const bodyText = (page: Page) => page.evaluate(() => document.body.innerText)

/** A slow phone: the page is shown, and its code (Vike's entry) comes `ms` later. */
export async function codeLate(page: Page, ms = 2000) {
  await page.setRequestInterception(true)
  page.on('request', (r) => void (r.url().includes('/assets/entries/entry-') ? setTimeout(() => void r.continue(), ms) : r.continue()))
}

/** Clicks the element in the page's own script: no pointer, so nothing over it (a toast, the sticky header) gets the click. */
export const tap = (page: Page, selector: string) => page.$eval(selector, (e) => (e as HTMLElement).click())

/** Nothing sticks out sideways on a 360 px phone. */
export const fitsPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)

/** Opens a path of the test app and waits until the page has hydrated. */
export async function goto(page: Page, path: string) {
  await page.goto(url(path))
  await hydrated(page)
}
