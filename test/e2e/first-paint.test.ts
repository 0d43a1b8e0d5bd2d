import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'

/** When the parser had put the footer's last line in the page, and when the browser first painted text (ms since the start). */
interface Probe {
  footerAt?: number
  paintAt?: number
}

/**
 * A slow network in front of the app: a page's HTML comes in two parts, the second (from `<main`) a moment after the
 * first, as on a phone whose connection delivers the page in two bursts. Everything else passes through as it is.
 */
function slowNetwork(): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const answer = await fetch(url(req.url ?? '/'), { headers: { accept: req.headers.accept ?? '*/*', 'accept-encoding': 'identity' } })
    const type = answer.headers.get('content-type') ?? ''
    const body = Buffer.from(await answer.arrayBuffer())
    const headers: Record<string, string> = {}
    for (const name of ['content-type', 'content-security-policy', 'cache-control']) {
      const v = answer.headers.get(name)
      if (v) headers[name] = v
    }
    res.writeHead(answer.status, headers)
    if (!type.startsWith('text/html')) return res.end(body)
    const text = body.toString()
    const at = text.indexOf('<main')
    res.write(text.slice(0, at))
    setTimeout(() => res.end(text.slice(at)), 2000)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('browser: a public page is painted first whole, not its header alone', function () {
  const browser = browserSuite(this, 90_000, 'once')
  let network: http.Server
  before(async () => {
    network = await slowNetwork()
  })
  after(() => {
    network?.close()
  })

  for (const path of ['/data-services', '/']) {
    it(`${path}: no paint before the footer's last line is parsed, even when the page arrives in two parts`, async () => {
      const page = await newPage(browser)
      await page.evaluateOnNewDocument(() => {
        const probe: Probe = {}
        ;(window as unknown as { probe: Probe }).probe = probe
        // Told at the end of the parser's task that inserted it: a task never runs while the browser paints.
        new MutationObserver((_, seen) => {
          if (!document.querySelector('footer.footer > p:last-child')) return
          probe.footerAt = performance.now()
          seen.disconnect()
        }).observe(document, { childList: true, subtree: true })
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') probe.paintAt = e.startTime
        }).observe({ type: 'paint', buffered: true })
      })
      await page.goto(`http://127.0.0.1:${(network.address() as AddressInfo).port}${path}`, { waitUntil: 'load' })
      await page.waitForFunction(() => (window as unknown as { probe: Probe }).probe.paintAt !== undefined)
      const probe = await page.evaluate(() => (window as unknown as { probe: Probe }).probe)
      expect(probe.footerAt, `footer's last line parsed at ${probe.footerAt} ms, first paint at ${probe.paintAt} ms`).to.be.below(probe.paintAt!)
      await page.browserContext().close()
    })
  }
})
