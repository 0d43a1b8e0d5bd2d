import { expect } from 'chai'
import { adminClient, Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

/** The page's HTML split at the inert <template> that holds its scripts: what the browser parses as it comes, and the template. */
function split(html: string) {
  const m = /<template id="client-assets">([\s\S]*?)<\/template>/.exec(html)
  expect(m, 'the scripts are in <template id="client-assets">').to.not.equal(null)
  return { parsed: html.slice(0, m!.index) + html.slice(m!.index + m![0].length), held: m![1]! }
}

// A page's JavaScript starts after its first paint (ADR 0044): in the HTML the browser fetches no script and preloads no
// module, so Lighthouse's simulated first and largest paints carry the document and the stylesheets only.
describe('first load: the page is painted before its scripts are fetched', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  for (const path of ['/', '/data-services', '/afa', '/agent/register', '/login']) {
    it(`${path}: no script or modulepreload outside the template, and a nonce'd start after it`, async () => {
      const res = await new Client().get(path, browser)
      expect(res.status).to.equal(200)
      const { parsed, held } = split(res.text)
      // Outside it only our inline scripts (the theme, the start): no file to fetch, and Vike's data is held with its entry.
      expect(parsed).to.not.match(/<script[^>]*\ssrc=/)
      expect(parsed).to.not.include('modulepreload')
      expect(parsed).to.not.include('vike_pageContext')
      expect(held).to.match(/<script id="vike_pageContext" type="application\/json"/)
      expect(held).to.match(/<script src="\/assets\/entries\/entry-[^"]+\.js" type="module" async/)
      expect(held).to.include('rel="modulepreload"')
      // The start runs inline, so it carries this response's CSP nonce, and it comes after the template it reads.
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]
      expect(nonce).to.be.a('string')
      const start = res.text.indexOf(`<script nonce="${nonce}">(function(){`)
      expect(start).to.be.above(res.text.indexOf('</template>'))
      expect(res.text.slice(start)).to.include("getElementById('client-assets')")
    })
  }

  it('a portal page holds its scripts the same way', async () => {
    const admin = await adminClient()
    const res = await admin.get('/admin/overview', browser)
    expect(res.status).to.equal(200)
    const { parsed, held } = split(res.text)
    expect(parsed).to.not.match(/<script[^>]*\ssrc=/)
    expect(held).to.match(/<script src="\/assets\/entries\/entry-[^"]+\.js"/)
  })
})
