import { expect } from 'chai'
import http from 'node:http'
import zlib from 'node:zlib'
import { createPackage } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

// `compression` is set on a response only when its answer needs it (ADR 0090): what each kind of answer looks like
// on the wire stays what it was when `compression` was set on every response.

interface Raw {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(app().url + path, { method, headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const decode = (r: Raw) => {
  const e = r.headers['content-encoding']
  const plain = e === 'br' ? zlib.brotliDecompressSync(r.body) : e === 'gzip' ? zlib.gunzipSync(r.body) : e === 'deflate' ? zlib.inflateSync(r.body) : r.body
  return JSON.parse(plain.toString('utf8'))
}

describe('compression on first use: the answers as they were', () => {
  beforeEach(resetDb)

  it('a small JSON answer goes plain, with Vary: Accept-Encoding', async () => {
    const r = await send('GET', '/healthz', { 'accept-encoding': 'gzip, br' })
    expect(r.status).to.equal(200)
    expect(r.headers['content-encoding']).to.equal(undefined)
    expect(String(r.headers.vary)).to.match(/accept-encoding/i)
    expect(Number(r.headers['content-length'])).to.equal(r.body.length)
    expect(decode(r)).to.deep.equal({ status: 'ok' })
  })

  it('a JSON answer to a client that takes only deflate goes deflated; to one that takes none, plain', async () => {
    for (let i = 0; i < 15; i++) await createPackage({ name: `Bundle number ${i} with a long enough name`, sizeMb: 1000 + i })
    const admin = await adminClient()
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const deflated = await send('GET', '/api/packages', { 'accept-encoding': 'deflate', cookie })
    expect(deflated.status).to.equal(200)
    expect(deflated.headers['content-encoding']).to.equal('deflate')
    expect(String(deflated.headers.vary)).to.match(/accept-encoding/i)
    const plain = await send('GET', '/api/packages', { 'accept-encoding': 'identity', cookie })
    expect(plain.headers['content-encoding']).to.equal(undefined)
    expect(decode(deflated)).to.deep.equal(decode(plain))
    expect(plain.body.length, 'past the threshold').to.be.greaterThan(1024)
  })

  it('a sign-in answer (the session written before it ends) decodes in every encoding the client takes', async () => {
    for (const encoding of ['gzip', 'br', 'deflate', 'identity']) {
      const r = await send(
        'POST',
        '/api/auth/login',
        { 'content-type': 'application/json', 'accept-encoding': encoding },
        JSON.stringify({ email: ADMIN.email, password: ADMIN.password })
      )
      expect(r.status, encoding).to.equal(200)
      expect(String(r.headers['set-cookie']), encoding).to.include('datahub.sid=')
      expect(decode(r).csrfToken, encoding).to.be.a('string')
    }
  })
})
