import { expect } from 'chai'
import http from 'node:http'
import zlib from 'node:zlib'
import { createPackage } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

interface Raw {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  /** Decoded text as it stood when each raw chunk arrived (all but the last show what came early). */
  decodedAtChunk: string[]
}

/** What a browser could have decoded once the raw bytes up to and including each chunk had come. */
function decodedPrefixes(chunks: Buffer[], encoding: string | undefined): string[] {
  const upTo = (i: number) => Buffer.concat(chunks.slice(0, i + 1))
  // Decoded synchronously after the response has ended, so what a chunk carried does not depend on
  // when the stream decoder's thread-pool work finished against the test's own timers.
  if (encoding === 'br')
    return chunks.map((_, i) => zlib.brotliDecompressSync(upTo(i), { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString('utf8'))
  if (encoding === 'gzip') return chunks.map((_, i) => zlib.gunzipSync(upTo(i), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8'))
  return chunks.map((_, i) => upTo(i).toString('utf8'))
}

/** A GET that keeps the bytes as sent, chunk by chunk, as the network delivered them. */
function rawGet(path: string, encoding: string, ua = 'Mozilla/5.0', headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(app().url + path, { headers: { 'accept-encoding': encoding, 'user-agent': ua, ...headers } }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => {
        const decodedAtChunk = decodedPrefixes(parts, res.headers['content-encoding'])
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts), decodedAtChunk })
      })
    })
    req.on('error', reject)
  })
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br'
    ? zlib.brotliDecompressSync(r.body).toString('utf8')
    : r.headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(r.body).toString('utf8')
      : r.body.toString('utf8')

function assetUrls(html: string): { css: string[]; js: string[] } {
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1])
  const js = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
  return { css, js }
}

describe('compression: what a phone receives', () => {
  beforeEach(resetDb)

  it('sends a rendered page as brotli, and the head arrives before the body ends', async () => {
    // A page rendered for this request (visitors' public pages come whole from the page cache).
    const r = await rawGet('/payment-callback', 'br, gzip')
    expect(r.status).to.equal(200)
    expect(r.headers['content-encoding']).to.equal('br')
    expect(String(r.headers.vary)).to.match(/accept-encoding/i)
    const html = decode(r)
    expect(html).to.include('</html>')
    // Streaming survives compression: the text decoded before the last chunk already holds the head.
    expect(r.decodedAtChunk.length).to.be.greaterThan(1)
    const beforeLast = r.decodedAtChunk[r.decodedAtChunk.length - 2]
    expect(beforeLast).to.include('</head>')
    expect(beforeLast).not.to.include('</html>')
  })

  it('sends gzip to a client that accepts only gzip, and plain HTML to one that accepts none', async () => {
    const gz = await rawGet('/data-services', 'gzip')
    expect(gz.headers['content-encoding']).to.equal('gzip')
    expect(decode(gz)).to.include('</html>')
    const plain = await rawGet('/data-services', 'identity')
    expect(plain.headers['content-encoding']).to.equal(undefined)
    expect(plain.body.toString('utf8')).to.include('</html>')
  })

  it('serves the CSS and JS the page links as precompressed brotli or gzip files, byte for byte the same', async () => {
    const page = decode(await rawGet('/', 'br'))
    const { css, js } = assetUrls(page)
    expect(css.length, 'stylesheets linked').to.be.greaterThan(0)
    expect(js.length, 'scripts linked').to.be.greaterThan(0)
    for (const url of [...css, ...js]) {
      const plain = await rawGet(url, 'identity')
      expect(plain.status, url).to.equal(200)
      if (plain.body.length < 512) continue // too small to be worth a compressed copy
      const br = await rawGet(url, 'gzip, deflate, br')
      expect(br.headers['content-encoding'], url).to.equal('br')
      expect(String(br.headers.vary), url).to.match(/accept-encoding/i)
      expect(br.headers['cache-control'], url).to.include('immutable')
      expect(br.body.length, url).to.be.lessThan(plain.body.length)
      expect(decode(br), url).to.equal(plain.body.toString('utf8'))
      const gz = await rawGet(url, 'gzip')
      expect(gz.headers['content-encoding'], url).to.equal('gzip')
      expect(decode(gz), url).to.equal(plain.body.toString('utf8'))
    }
  })

  it('sends the cached home page to a visitor compressed: gzip made at render time (ADR 0025), brotli to a client that takes only that', async () => {
    const r = await rawGet('/', 'br, gzip')
    expect(r.status).to.equal(200)
    expect(r.headers['content-encoding']).to.equal('gzip')
    expect(decode(r)).to.include('</html>')
    const brOnly = await rawGet('/', 'br')
    expect(brOnly.headers['content-encoding']).to.equal('br')
    expect(decode(brOnly)).to.include('</html>')
  })

  it("compresses JSON answers (a visitor's catalogue is compressed once per version)", async () => {
    for (let i = 0; i < 15; i++) await createPackage({ name: `Bundle number ${i} with a long enough name`, sizeMb: 1000 + i })
    const r = await rawGet('/api/packages', 'br')
    expect(r.status).to.equal(200)
    expect(r.headers['content-type']).to.include('application/json')
    expect(r.headers['content-encoding']).to.equal('br')
    expect(JSON.parse(decode(r))).to.be.ok
  })
})

describe('compression: what is compressed per request is compressed cheaply', () => {
  beforeEach(resetDb)

  it('encodes a signed-in JSON answer with brotli quality 1, in one piece when it is written at once', async () => {
    for (let i = 0; i < 15; i++) await createPackage({ name: `Bundle number ${i} with a long enough name`, sizeMb: 1000 + i })
    const admin = await adminClient()
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const r = await rawGet('/api/packages', 'br', 'Mozilla/5.0', { cookie })
    expect(r.status).to.equal(200)
    expect(r.headers['content-encoding']).to.equal('br')
    const text = decode(r)
    expect(text.length).to.be.greaterThan(1024)
    // Byte for byte what quality 1 makes of the text (quality 4 cost 4-6x the CPU for 10-15% fewer bytes).
    const q1 = zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
    expect(r.body.equals(q1)).to.equal(true)
  })
})

describe("compression: a whole JSON answer is compressed in the request's turn", () => {
  beforeEach(resetDb)

  it("a placed order's answer goes out compressed with its length, in one piece (no zlib stream), in brotli or gzip", async () => {
    const pkg = await createPackage()
    for (const [encoding, phone] of [
      ['br', '0241234567'],
      ['gzip', '0241234568']
    ] as const) {
      const body = JSON.stringify({ packageId: pkg.id, recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' })
      const r = await new Promise<Raw>((resolve, reject) => {
        const req = http.request(
          `${app().url}/api/orders`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': encoding } },
          (res) => {
            const parts: Buffer[] = []
            res.on('data', (c: Buffer) => parts.push(c))
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts), decodedAtChunk: [] }))
          }
        )
        req.on('error', reject)
        req.end(body)
      })
      expect(r.status, r.body.toString()).to.equal(201)
      expect(r.headers['content-encoding'], encoding).to.equal(encoding)
      expect(String(r.headers.vary)).to.match(/accept-encoding/i)
      // A stream's answer is chunked, its length unknown when the headers go.
      expect(r.headers['transfer-encoding'], encoding).to.equal(undefined)
      expect(Number(r.headers['content-length']), encoding).to.equal(r.body.length)
      const json = JSON.parse(decode(r))
      expect(json.order).to.include({ recipientNumber: phone, paymentStatus: 'PENDING' })
      expect(JSON.stringify(json).length, 'past the threshold').to.be.greaterThan(1024)
    }
  })
})

describe('compression: HEAD answers carry the headers of their GET', () => {
  it('shows Content-Encoding on HEAD / and sends no body', async () => {
    const res = await new Promise<http.IncomingMessage & { bytes: number }>((resolve, reject) => {
      const req = http.request(app().url + '/', { method: 'HEAD', headers: { 'accept-encoding': 'br, gzip', 'user-agent': 'Mozilla/5.0' } }, (r) => {
        let bytes = 0
        r.on('data', (c: Buffer) => (bytes += c.length))
        r.on('end', () => resolve(Object.assign(r, { bytes })))
      })
      req.on('error', reject)
      req.end()
    })
    expect(res.statusCode).to.equal(200)
    expect(res.headers['content-encoding']).to.equal('gzip')
    expect(Number(res.headers['content-length'])).to.be.greaterThan(0)
    expect(res.bytes).to.equal(0)
  })
})
