// A performance trace of one page load in Chromium (/usr/bin/chromium, CHROME_PATH) with a phone's viewport, until the
// page is hydrated (`data-hydrated` on <html>) and `settleMs` after, for the benches that weigh a phone's main thread.
import puppeteer, { type Page } from 'puppeteer-core'
import { pagesServer } from './lib.ts'

export const SHOP_SLUG = 'lighthouse-shop'
export const ADMIN = { email: 'lighthouse-admin@datahub.local', password: 'lighthouse-admin-pass-123' }

/**
 * The production build these benches load: MT_URL names a server that is up; otherwise one starts on MT_PORT (4484)
 * with its own embedded PostgreSQL (MT_PG_PORT, 54484).
 */
export const mainThreadServer = () =>
  pagesServer({
    url: process.env.MT_URL,
    port: process.env.MT_PORT ?? '4484',
    pgPort: process.env.MT_PG_PORT ?? '54484',
    dataDir: '.data/main-thread-db',
    admin: ADMIN
  })

/** Lighthouse's mobile CPU slowdown: it multiplies what it observed, and so do these benches. */
export const SLOWDOWN = 4

export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** CPU time of the thread in the event, µs */
  tdur?: number
  pid: number
  tid: number
  args?: {
    name?: string
    /** Layout's: how many layout objects it laid out, of how many */
    beginData?: { url?: string; dirtyObjects?: number; totalObjects?: number }
    data?: { url?: string; functionName?: string; type?: string }
    /** UpdateLayoutTree's: how many elements it styled */
    elementCount?: number
  }
}

/** What an event would take on Lighthouse's mobile phone, in ms: its CPU time times the slowdown. */
export const cost = (e: TraceEvent) => ((e.tdur ?? e.dur ?? 0) * SLOWDOWN) / 1000

/** Loads `url` once in a fresh browser and returns the trace's events; `prepare` runs on the page before the load. */
export async function tracePhoneLoad(
  url: string,
  opts: { categories: string[]; settleMs: number; prepare?: (page: Page) => Promise<void> }
): Promise<TraceEvent[]> {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage']
  })
  try {
    const page = await browser.newPage()
    await page.setViewport({ width: 412, height: 823, isMobile: true, deviceScaleFactor: 1.75 })
    await opts.prepare?.(page)
    await page.tracing.start({ categories: opts.categories })
    await page.goto(url, { waitUntil: 'load' })
    await page.waitForSelector('html[data-hydrated="true"]', { timeout: 60_000 })
    await new Promise((r) => setTimeout(r, opts.settleMs))
    return (JSON.parse(Buffer.from((await page.tracing.stop())!).toString()) as { traceEvents: TraceEvent[] }).traceEvents
  } finally {
    await browser.close()
  }
}
