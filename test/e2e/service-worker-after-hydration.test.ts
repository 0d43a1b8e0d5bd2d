import { expect } from 'chai'
import { hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

interface Registration {
  /** `data-hydrated` on <html> when the page asked for its worker */
  hydrated: string | null
  /** whether the browser called it from an idle callback's task */
  idle: boolean
}

// The service worker's install (a thread started, the public pages and their assets fetched and saved) is work the
// first screen does not need: the page asks for it once it is hydrated and the browser is idle, and still gets it.
describe('browser: the service worker is registered after hydration, when the browser is idle', function () {
  const browser = browserSuite(this, 120_000, 'each')

  for (const path of ['/data-services', '/']) {
    it(`${path}: asked for once hydrated, from an idle callback, and the worker then controls the page`, async () => {
      const page = await newPage(browser)
      // Notes each registration the page asks for, and whether an idle callback is running at that moment.
      await page.evaluateOnNewDocument(() => {
        const w = window as unknown as { __registrations: Registration[]; __inIdle: boolean }
        w.__registrations = []
        w.__inIdle = false
        const ric = window.requestIdleCallback.bind(window)
        window.requestIdleCallback = (cb, opts) =>
          ric((deadline) => {
            w.__inIdle = true
            try {
              cb(deadline)
            } finally {
              w.__inIdle = false
            }
          }, opts)
        const register = ServiceWorkerContainer.prototype.register
        ServiceWorkerContainer.prototype.register = function (this: ServiceWorkerContainer, ...args: Parameters<typeof register>) {
          w.__registrations.push({ hydrated: document.documentElement.dataset.hydrated ?? null, idle: w.__inIdle })
          return register.apply(this, args)
        }
      })
      await page.goto(url(path))
      await hydrated(page)
      // The deferred work still runs: the worker installs and takes the page over.
      await page.waitForFunction(() => !!navigator.serviceWorker?.controller, { timeout: 30_000 })
      const registrations = await page.evaluate(() => (window as unknown as { __registrations: Registration[] }).__registrations)
      expect(registrations).to.deep.equal([{ hydrated: 'true', idle: true }])
      await page.close()
    })
  }
})
