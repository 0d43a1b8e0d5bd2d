import { expect } from 'chai'
import { app } from '../helpers/server.ts'

const get = (path: string) => fetch(app().url + path, { headers: { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' } })

// The browser draws an SVG icon (the tab's, or the manifest's it reads as the page loads) by building a document of
// its own on the page's main thread, a task of 4-6 ms of CPU right after the first paint; a PNG icon is only decoded.
describe('page icons: PNG only, so no icon costs the page a document on its main thread', () => {
  for (const path of ['/', '/data-services', '/afa', '/agent/register', '/login']) {
    it(`${path}: its icon links name PNGs that are served as PNG`, async () => {
      const html = await (await get(path)).text()
      const links = [...html.matchAll(/<link rel="(?:icon|apple-touch-icon)"[^>]*>/g)].map((m) => m[0])
      expect(links.length, 'icon links').to.be.greaterThan(0)
      for (const link of links) {
        const href = /href="([^"]+)"/.exec(link)![1]!
        expect(href, link).to.match(/\.png$/)
        const icon = await get(href)
        expect(icon.status, href).to.equal(200)
        expect(icon.headers.get('content-type'), href).to.equal('image/png')
      }
    })
  }

  it('the manifest names no SVG icon', async () => {
    const m = (await (await get('/manifest.webmanifest')).json()) as { icons: { src: string; type: string }[] }
    expect(m.icons.length).to.be.greaterThan(0)
    for (const icon of m.icons) {
      expect(icon.type, icon.src).to.equal('image/png')
      expect(icon.src).to.match(/\.png$/)
    }
  })
})
