import { expect } from 'chai'
import { app } from '../helpers/server.ts'

const get = (path: string) => fetch(app().url + path, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0' } })

describe('site meta: robots.txt, sitemap, manifest, head tags', () => {
  it('answers robots.txt itself (it used to redirect to /), keeping crawlers out of the back office', async () => {
    const r = await get('/robots.txt')
    expect(r.status).to.equal(200)
    expect(r.headers.get('content-type')).to.include('text/plain')
    const text = await r.text()
    expect(text).to.include('User-agent: *')
    expect(text).to.include('Disallow: /admin')
    expect(text).to.include('Disallow: /api/')
    expect(text).to.match(/Sitemap: http:\/\/[^\s]+\/sitemap\.xml/)
  })

  it('lists the public pages in sitemap.xml', async () => {
    const r = await get('/sitemap.xml')
    expect(r.status).to.equal(200)
    expect(r.headers.get('content-type')).to.include('xml')
    const xml = await r.text()
    for (const p of ['/data-services', '/afa', '/agent/register']) expect(xml).to.include(`${p}</loc>`)
    expect(xml).not.to.include('/admin')
  })

  it('serves a web app manifest whose icons exist', async () => {
    const r = await get('/manifest.webmanifest')
    expect(r.status).to.equal(200)
    const m = (await r.json()) as { name: string; icons: { src: string; sizes: string; type: string }[]; theme_color: string; start_url: string }
    expect(m.name).to.equal('Data Hub')
    expect(m.start_url).to.equal('/')
    expect(m.theme_color).to.match(/^#/)
    expect(m.icons.map((i) => i.sizes)).to.include.members(['192x192', '512x512'])
    for (const icon of m.icons) {
      const i = await get(icon.src)
      expect(i.status, icon.src).to.equal(200)
      expect(i.headers.get('content-type'), icon.src).to.include(icon.type.split('+')[0])
    }
  })

  it('gives each public page its own meta description, a theme colour and the manifest link', async () => {
    const descriptions = new Set<string>()
    for (const p of ['/', '/data-services', '/afa', '/agent/register', '/login']) {
      const html = await (await get(p)).text()
      const d = html.match(/<meta name="description" content="([^"]+)"/)?.[1]
      expect(d, p).to.be.a('string').with.length.greaterThan(20)
      descriptions.add(d!)
      expect(html, p).to.match(/<meta name="theme-color" content="#[0-9a-f]{6}"/)
      expect(html, p).to.include('<link rel="manifest" href="/manifest.webmanifest"')
    }
    expect(descriptions.size).to.equal(5)
  })
})
