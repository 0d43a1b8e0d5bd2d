import type { Browser } from 'puppeteer-core'
import { closeBrowser, useBrowser } from './browser.ts'
import { resetDb } from './server.ts'

/**
 * The opening a browser test's describe shares with the others: its time limit, Chromium launched before its tests
 * (skipped when none is installed, see useBrowser) and closed after them, and a fresh database before each test
 * ('each'), once before them all ('once') or never ('none'). Call it first in the describe's body; the Browser it answers stands in
 * for the one launched there, so a test uses it as it would the real one.
 */
export function browserSuite(suite: Mocha.Suite, timeout: number, reset: 'each' | 'once' | 'none'): Browser {
  suite.timeout(timeout)
  let launched: Browser | undefined
  suite.beforeAll(async function () {
    launched = await useBrowser(this)
    if (reset === 'once') await resetDb()
  })
  suite.afterAll(closeBrowser)
  if (reset === 'each') suite.beforeEach(resetDb)
  return new Proxy({} as Browser, {
    get(_, key) {
      if (!launched) throw new Error('no browser yet: it is launched in the before hook of the suite; use it inside a test or a hook')
      const value = Reflect.get(launched, key, launched)
      return typeof value === 'function' ? value.bind(launched) : value
    }
  })
}
