import { expect } from 'chai'
import { createPageCache, isCacheablePath, type RenderedPage } from '../../server/http/page-cache.ts'

// The page cache's per-shop drops (ADR 0036), without HTTP: what is kept, what a drop ends, and a
// render overtaken by a drop.
function cacheWith(render: (url: string) => Promise<RenderedPage>) {
  const renders: string[] = []
  const cache = createPageCache({ version: () => '1', render: (url) => (renders.push(url), render(url)) })
  return { cache, renders }
}
const shopPage = (id: number, body = `shop ${id}`): RenderedPage => ({ status: 200, headers: [], body, tag: `shop:${id}` })

describe('page cache: shop pages', () => {
  it('knows a shop path from others', () => {
    expect(isCacheablePath('/shop/ama-data')).to.equal(true)
    expect(isCacheablePath('/shop/ama-data/og.png')).to.equal(false)
    expect(isCacheablePath('/shop/')).to.equal(false)
    expect(isCacheablePath('/data-services')).to.equal(true)
    expect(isCacheablePath('/payment-callback')).to.equal(false)
    expect(isCacheablePath('/checkers')).to.equal(true)
    expect(isCacheablePath('/checkers/mine')).to.equal(true)
  })

  it("drops one shop's pages, every query of them, and leaves the others", async () => {
    const { cache, renders } = cacheWith(async (url) => shopPage(url.includes('/b') ? 2 : 1))
    for (const url of ['/shop/a', '/shop/a?network=MTN', '/shop/b']) await cache.get(url)
    cache.drop('shop:1')
    expect((await cache.get('/shop/b')).hit).to.equal(true)
    expect((await cache.get('/shop/a?network=MTN')).hit).to.equal(false)
    expect((await cache.get('/shop/a')).hit).to.equal(false)
    cache.drop()
    expect((await cache.get('/shop/b')).hit).to.equal(false)
    expect(renders).to.have.length(6)
  })

  it('answers but never keeps a render that a drop overtook, and a later visitor does not wait on it', async () => {
    let release!: () => void
    const { cache, renders } = cacheWith((url) =>
      renders.length === 1 ? new Promise((r) => (release = () => r(shopPage(1, 'old')))) : Promise.resolve(shopPage(1, 'new'))
    )
    const early = cache.get('/shop/a')
    await new Promise((r) => setImmediate(r))
    cache.drop('shop:1')
    const late = await cache.get('/shop/a')
    expect((late.page as RenderedPage & { parts?: Buffer[] }).parts?.join('')).to.equal('new')
    release()
    await early
    // The page rendered after the drop stays; the overtaken one did not replace it.
    const again = await cache.get('/shop/a')
    expect(again.hit).to.equal(true)
    expect((again.page as RenderedPage & { parts?: Buffer[] }).parts?.join('')).to.equal('new')
  })

  it('keeps neither a page marked noStore nor a non-200', async () => {
    const { cache } = cacheWith(async (url) =>
      url === '/shop/x' ? { status: 200, headers: [], body: 'x', noStore: true } : { status: 404, headers: [], body: '' }
    )
    await cache.get('/shop/x')
    await cache.get('/shop/gone')
    expect(cache.size).to.equal(0)
  })

  it('keeps one entry per Host when the host is given', async () => {
    const { cache } = cacheWith(async () => shopPage(1))
    await cache.get('/shop/a', 'a.example')
    expect((await cache.get('/shop/a', 'b.example')).hit).to.equal(false)
    expect((await cache.get('/shop/a', 'a.example')).hit).to.equal(true)
  })
})
