import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient } from '../helpers/http.ts'
import { onFakePaystack, paystackOrder, postPaystackWebhook } from '../helpers/instance.ts'
import { app } from '../helpers/server.ts'

// The signed Paystack webhook takes the lean path mounted before the browser's middleware (ADR 0089): what it
// answers is what it answered through the whole stack, and the session, sign-in, CSRF and compression never see it.
describe("a Paystack webhook's lean path", function () {
  this.timeout(30_000)
  const on = onFakePaystack('sk_test_lean')
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${on.ps().url}/api/webhooks/paystack`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body })
  const sessions = async () =>
    app().db.sequelize.query<{ sid: string; expire: string }>('SELECT sid, expire::text FROM session ORDER BY sid', { type: QueryTypes.SELECT })

  const paymentStatus = async (id: number) =>
    (
      await app().db.sequelize.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = :id', {
        replacements: { id },
        type: QueryTypes.SELECT
      })
    )[0]?.payment_status

  async function signedCharge() {
    const { id, tid } = await paystackOrder(on.ps())
    on.fake().complete(tid, 'success')
    return { id, ...on.fake().webhook(tid) }
  }

  it('settles a signed charge.success with the same answer: 200 {received: true}, JSON, the API headers, no cookie, nothing compressed', async () => {
    const { id, body, signature } = await signedCharge()
    const res = await post(body, { 'x-paystack-signature': signature, 'x-request-id': 'gw-lean-1', 'Accept-Encoding': 'gzip, br' })
    expect(res.status).to.equal(200)
    expect(await res.json()).to.deep.equal({ received: true })
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8')
    expect(res.headers.get('x-request-id')).to.equal('gw-lean-1')
    expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff')
    expect(res.headers.getSetCookie()).to.deep.equal([])
    expect(res.headers.get('content-encoding')).to.equal(null)
    // The compression middleware marks every answer it could have encoded; this one never passed it.
    expect(res.headers.get('vary')).to.equal(null)
    // Nothing revalidates the answer to a POST: it carries no ETag, whose hash every answer paid for.
    expect(res.headers.get('etag')).to.equal(null)
    expect(res.headers.get('content-length')).to.equal('17')
    expect(await paymentStatus(id)).to.equal('SUCCESS')
    expect(await sessions()).to.deep.equal([])
  })

  it("carries a signed-in browser's session cookie without reading or moving that session, and no CSRF check refuses it", async () => {
    const admin = await adminClient(on.ps().url)
    const before = await sessions()
    expect(before).to.have.length(1)
    const { id, body, signature } = await signedCharge()
    // A session cookie and a cross-site origin, no CSRF token: through the browser's middleware this was a 403.
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await post(body, { 'x-paystack-signature': signature, Cookie: cookie, Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' })
    expect(res.status, await res.clone().text()).to.equal(200)
    expect(await res.json()).to.deep.equal({ received: true })
    expect(res.headers.getSetCookie()).to.deep.equal([])
    expect(await sessions()).to.deep.equal(before)
    expect(await paymentStatus(id)).to.equal('SUCCESS')
  })

  it('refuses a bad or missing signature with the same 401 and body, and settles nothing', async () => {
    const { id, body, signature } = await signedCharge()
    const before = await paymentStatus(id)
    expect(before).to.not.equal('SUCCESS')
    const bad = await postPaystackWebhook(on.ps(), body, `${signature.slice(0, -2)}00`)
    expect(bad.status).to.equal(401)
    expect(await bad.json()).to.deep.equal({ error: 'Invalid signature', message: 'Invalid signature' })
    expect(bad.headers.getSetCookie()).to.deep.equal([])
    const none = await postPaystackWebhook(on.ps(), body)
    expect(none.status).to.equal(401)
    expect(await none.json()).to.deep.equal({ error: 'Invalid signature', message: 'Invalid signature' })
    // Signed over other bytes than those sent (the same JSON, spaced otherwise): refused.
    const respaced = await postPaystackWebhook(on.ps(), JSON.stringify(JSON.parse(body), null, 1), signature)
    expect(respaced.status).to.equal(401)
    expect(await paymentStatus(id)).to.equal(before)
  })

  it("answers a bad body as the app's parsers and input checks did: malformed JSON 400, too large 413, another type 415, NUL 400", async () => {
    const malformed = await post('{"event":', { 'x-paystack-signature': on.fake().sign('{"event":') })
    expect(malformed.status).to.equal(400)
    expect(await malformed.json()).to.deep.equal({ error: 'Malformed JSON body' })
    const big = JSON.stringify({ event: 'charge.success', data: { pad: 'x'.repeat(101 * 1024) } })
    const large = await post(big, { 'x-paystack-signature': on.fake().sign(big) })
    expect(large.status).to.equal(413)
    expect(await large.json()).to.deep.equal({ error: 'Request body too large' })
    const xml = await post('<event/>', { 'Content-Type': 'application/xml', 'x-paystack-signature': on.fake().sign('<event/>') })
    expect(xml.status).to.equal(415)
    expect((await xml.json()).error).to.match(/^Unsupported Content-Type/)
    const nul = JSON.stringify({ event: 'charge.success\u0000', data: {} })
    const withNul = await post(nul, { 'x-paystack-signature': on.fake().sign(nul) })
    expect(withNul.status).to.equal(400)
    expect((await withNul.json()).error).to.match(/NUL/)
  })

  it('refuses unstorable text however the JSON carries it: escaped in UTF-8, raw in UTF-16; an encoded surrogate in UTF-8 is only U+FFFD', async () => {
    const escaped = JSON.stringify({ event: 'charge.success', data: { reference: 'ab\ud800' } })
    const viaEscape = await post(escaped, { 'x-paystack-signature': on.fake().sign(escaped) })
    expect(viaEscape.status).to.equal(400)
    expect((await viaEscape.json()).error).to.match(/lone UTF-16 surrogate/)
    // UTF-16 carries a lone surrogate as two bytes, no escape: the bytes alone cannot clear it.
    const utf16 = Buffer.from('{"event":"charge.success","data":{"reference":"ab\ud800"}}', 'utf16le')
    const raw16 = await fetch(`${on.ps().url}/api/webhooks/paystack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-16le', 'x-paystack-signature': on.fake().sign(utf16.toString('latin1')) },
      body: utf16
    })
    expect(raw16.status).to.equal(400)
    expect((await raw16.json()).error).to.match(/lone UTF-16 surrogate/)
    // UTF-8 bytes of a surrogate (ED A0 80) decode to U+FFFD: storable text, so the signature decides (here: none).
    const encoded = Buffer.concat([Buffer.from('{"event":"charge.success","data":{"reference":"ab'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')])
    const raw8 = await fetch(`${on.ps().url}/api/webhooks/paystack`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: encoded })
    expect(raw8.status).to.equal(401)
  })

  it('counts the webhook in the metrics under its route, as before', async () => {
    const { body, signature } = await signedCharge()
    expect((await post(body, { 'x-paystack-signature': signature })).status).to.equal(200)
    const text = await (await fetch(`${on.ps().url}/metrics`)).text()
    expect(text).to.match(/datahub_http_requests_total\{method="POST",route="\/api\/webhooks\/paystack",status="200"\} [1-9]/)
  })

  it("leaves the gateway's checkout return (GET) on the browser's path", async () => {
    const res = await fetch(`${on.ps().url}/api/webhooks/paystack?reference=nope`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(res.status).to.be.within(200, 499)
    expect(res.headers.get('vary')).to.include('Accept-Encoding')
  })
})
