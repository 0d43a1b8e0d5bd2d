import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// The buy form (/data-services and every /shop/<slug>) in a plain GET, as a phone without
// JavaScript or a link preview gets it: it opens on a network that has something to sell, and every
// network's bundles and prices are in the markup, not only in the hydration data.

const seeded = async (network: string, sizeMb: number) => (await app().db.models.Package.findOne({ where: { network, sizeMb } }))!.get('id') as number

async function page(path: string) {
  const res = await fetch(`${app().url}${path}`, { headers: { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }, redirect: 'manual' })
  expect(res.status, path).to.equal(200)
  // Scripts out: what counts is what the page shows, not the JSON React hydrates from.
  return (await res.text()).replace(/<script\b[\s\S]*?<\/script>/g, '')
}

interface Panel {
  network: string
  hidden: boolean
  html: string
}
/** Each network's tab panel: its attributes and its markup up to the next panel. */
function panels(html: string): Panel[] {
  const re = /<div role="tabpanel" id="panel-([A-Z]+)"([^>]*)>/g
  const found = [...html.matchAll(re)]
  return found.map((m, i) => ({
    network: m[1]!,
    hidden: /\bhidden\b/.test(m[2]!),
    html: html.slice(m.index! + m[0].length, found[i + 1]?.index ?? html.indexOf('</fieldset>', m.index))
  }))
}
/** The network tablist's markup (the page's other tablist is Buy Data / My Orders). */
const networkTabs = (html: string) => html.slice(html.indexOf('aria-label="Network"'), html.indexOf('</ul>', html.indexOf('aria-label="Network"')))
const selectedTab = (html: string) => networkTabs(html).match(/<a[^>]*role="tab"[^>]*aria-selected="true"[^>]*>([^<]*)</)?.[1]
const tabLinks = (html: string) => [...networkTabs(html).matchAll(/<a[^>]*role="tab"[^>]*href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))

async function shopSelling(slug: string, name: string, prices: { packageId: number; price: number }[]) {
  const a = await createAgent()
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  const made = await c.put('/api/shops/mine', { slug, name, description: '', whatsapp: '', accent: '#1565c0' })
  expect(made.status, made.text).to.equal(200)
  const priced = await c.put('/api/shops/mine/prices', { prices })
  expect(priced.status, priced.text).to.equal(200)
}

describe('buy form: every network server-rendered, opening on one that sells', () => {
  beforeEach(resetDb)

  it('a Telecel-only shop opens on Telecel with its name and Telecel prices in a plain GET; no empty MTN tab', async () => {
    // Seeded Telecel: 1GB GH₵4.50, 3GB GH₵14.00, no agent price; the default ceiling is 20 % above.
    await shopSelling('ama-telecel', 'Ama Telecel Corner', [
      { packageId: await seeded('TELECEL', 1024), price: 4.9 },
      { packageId: await seeded('TELECEL', 3072), price: 15.2 }
    ])
    const html = await page('/shop/ama-telecel')
    expect(html).to.include('Ama Telecel Corner')
    expect(html).to.not.include('No packages available for this network.')
    expect(selectedTab(html)).to.equal('Telecel')
    const shown = panels(html)
    expect(shown.map((p) => [p.network, p.hidden])).to.deep.equal([['TELECEL', false]])
    expect(shown[0]!.html).to.include('GH₵4.90').and.include('GH₵15.20').and.include('1GB daily').and.include('3GB weekly')
    expect(tabLinks(html)).to.include('?network=TELECEL')
  })

  it('a shop selling on all three networks has every price in the HTML, one panel shown; ?network= opens another', async () => {
    await shopSelling('kojo-all', 'Kojo All Networks', [
      { packageId: await seeded('MTN', 1024), price: 5.6 },
      { packageId: await seeded('TELECEL', 1024), price: 4.9 },
      { packageId: await seeded('AIRTELTIGO', 1024), price: 5.3 },
      { packageId: await seeded('AIRTELTIGO', 10240), price: 55.5 }
    ])
    const html = await page('/shop/kojo-all')
    const shown = panels(html)
    expect(shown.map((p) => [p.network, p.hidden])).to.deep.equal([
      ['MTN', false],
      ['TELECEL', true],
      ['AIRTELTIGO', true]
    ])
    expect(shown[0]!.html).to.include('GH₵5.60')
    expect(shown[1]!.html).to.include('GH₵4.90')
    expect(shown[2]!.html).to.include('GH₵5.30').and.include('GH₵55.50')
    expect(tabLinks(html)).to.deep.equal(['?network=MTN', '?network=TELECEL', '?network=AIRTELTIGO'])

    // The tabs are links: without JavaScript the server opens the one asked for.
    const at = await page('/shop/kojo-all?network=AIRTELTIGO')
    expect(selectedTab(at)).to.equal('AirtelTigo')
    expect(panels(at).map((p) => [p.network, p.hidden])).to.deep.equal([
      ['MTN', true],
      ['TELECEL', true],
      ['AIRTELTIGO', false]
    ])
  })

  it("/data-services has every network's seeded bundles and prices in its HTML; a bad ?network= falls back to the first", async () => {
    const html = await page('/data-services')
    const shown = panels(html)
    expect(shown.map((p) => [p.network, p.hidden])).to.deep.equal([
      ['MTN', false],
      ['TELECEL', true],
      ['AIRTELTIGO', true]
    ])
    const prices: Record<string, string[]> = {
      MTN: ['GH₵5.00', 'GH₵15.00', 'GH₵50.00'],
      TELECEL: ['GH₵4.50', 'GH₵14.00', 'GH₵45.00'],
      AIRTELTIGO: ['GH₵4.80', 'GH₵14.50', 'GH₵48.00']
    }
    for (const p of shown) {
      for (const price of prices[p.network]!) expect(p.html, p.network).to.include(price)
      expect(p.html).to.include('1GB daily').and.include('3GB weekly').and.include('10GB monthly')
    }

    expect(selectedTab(await page('/data-services?network=telecel'))).to.equal('Telecel')
    expect(selectedTab(await page('/data-services?network=%3Cb%3E'))).to.equal('MTN')
  })

  it('/data-services opens on the first network that has packages when MTN has none', async () => {
    await app().db.models.Package.update({ active: false }, { where: { network: 'MTN' } })
    const html = await page('/data-services')
    expect(selectedTab(html)).to.equal('Telecel')
    expect(panels(html).map((p) => [p.network, p.hidden])).to.deep.equal([
      ['TELECEL', false],
      ['AIRTELTIGO', true]
    ])
  })
})
