import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { signBody } from '../../server/services/whatsapp/webhook.ts'
import { inbound, statusEvent } from '../fakes/whatsapp-graph.ts'
import { adminClient } from '../helpers/http.ts'
import { cookieOf, sessionRows, untouchedByBrowserMiddleware } from '../helpers/lean-path.ts'
import { app, resetDb } from '../helpers/server.ts'
import { WA_APP_SECRET, whatsappInstance } from '../helpers/whatsapp.ts'

const VERIFY = 'wa-verify-token-lean-path'

// Meta's calls to the WhatsApp webhook take the lean path mounted before the browser's middleware (ADR 0089): the
// answers are those the whole stack gave, and the session, sign-in, CSRF check and compression never see them.
describe("WhatsApp's webhook on the lean path", function () {
  this.timeout(60_000)
  let chat: Awaited<ReturnType<typeof whatsappInstance>>
  const url = () => `${chat.wa.url}/api/whatsapp/webhook`
  const post = (raw: string, headers: Record<string, string> = {}) =>
    fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: raw })
  const signed = (raw: string) => ({ 'X-Hub-Signature-256': signBody(raw, WA_APP_SECRET) })

  before(async () => {
    chat = await whatsappInstance({ WHATSAPP_VERIFY_TOKEN: VERIFY })
  })
  after(async () => {
    await chat?.stop()
  })
  beforeEach(resetDb)

  it('takes a signed message with the same answer: 200 JSON {ok, received, duplicates, statuses}, no ETag, no session', async () => {
    const raw = JSON.stringify(inbound('233241230001', { id: 'wamid.LEAN1', text: 'hi' }))
    const res = await post(raw, { ...signed(raw), 'x-request-id': 'wa-lean-1', 'Accept-Encoding': 'gzip, br' })
    expect(res.status).to.equal(200)
    expect(await res.json()).to.deep.equal({ ok: true, received: 1, duplicates: 0, statuses: 0 })
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8')
    expect(res.headers.get('x-request-id')).to.equal('wa-lean-1')
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff')
    untouchedByBrowserMiddleware(res)
    expect(res.headers.get('etag')).to.equal(null)
    expect(await sessionRows()).to.deep.equal([])
  })

  it("carries a signed-in browser's session cookie and a cross-site Origin: neither refuses it, the session is neither read nor moved", async () => {
    const admin = await adminClient(chat.wa.url)
    const before = await sessionRows()
    expect(before).to.have.length(1)
    const raw = JSON.stringify(statusEvent('wamid.OUT-unknown', 'delivered', '233241230002'))
    const res = await post(raw, { ...signed(raw), Cookie: cookieOf(admin), Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' })
    expect(res.status, await res.clone().text()).to.equal(200)
    expect(await res.json()).to.deep.equal({ ok: true, received: 0, duplicates: 0, statuses: 1 })
    untouchedByBrowserMiddleware(res)
    expect(await sessionRows()).to.deep.equal(before)
  })

  it('refuses a bad, missing or other-bytes signature with the same 401 and body', async () => {
    const raw = JSON.stringify(inbound('233241230003', { id: 'wamid.LEAN3', text: 'hi' }))
    const sig = signed(raw)['X-Hub-Signature-256']
    const tries: Record<string, string>[] = [
      { 'X-Hub-Signature-256': `${sig.slice(0, -2)}00` },
      {},
      { 'X-Hub-Signature-256': signBody(`${raw} `, WA_APP_SECRET) }
    ]
    for (const headers of tries) {
      const res = await post(raw, headers)
      expect(res.status).to.equal(401)
      expect(await res.json()).to.deep.equal({ error: 'Invalid signature', message: 'Invalid signature' })
      untouchedByBrowserMiddleware(res)
    }
    const stored = await app().db.sequelize.query('SELECT 1 FROM whatsapp_messages', { type: QueryTypes.SELECT })
    expect(stored).to.deep.equal([])
  })

  it("answers a bad body as the app's parsers and checks did: malformed 400, too large 413, another type 415, NUL 400, a signed odd body 400", async () => {
    const cases: [string, Record<string, string>, number, unknown][] = [
      ['{"object":', signed('{"object":'), 400, { error: 'Malformed JSON body' }],
      [JSON.stringify({ object: 'x', pad: 'x'.repeat(101 * 1024) }), {}, 413, { error: 'Request body too large' }],
      ['<xml/>', { 'Content-Type': 'application/xml' }, 415, null],
      [JSON.stringify({ object: 'whatsapp_business_account\u0000', entry: [] }), {}, 400, null],
      [JSON.stringify({ object: 'something_else', entry: [] }), signed(JSON.stringify({ object: 'something_else', entry: [] })), 400, null]
    ]
    const errors: string[] = []
    for (const [raw, headers, status, body] of cases) {
      const res = await post(raw, headers)
      expect(res.status, raw.slice(0, 40)).to.equal(status)
      const json = await res.json()
      if (body) expect(json).to.deep.equal(body)
      errors.push(json.error)
      untouchedByBrowserMiddleware(res)
    }
    expect(errors[2]).to.match(/^Unsupported Content-Type/)
    expect(errors[3]).to.match(/NUL/)
    expect(errors[4]).to.match(/^Invalid WhatsApp webhook: /)
  })

  it("answers Meta's GET handshake the same: the challenge as text/plain, 403 'Verification failed' otherwise; a cookie changes nothing", async () => {
    const admin = await adminClient(chat.wa.url)
    const before = await sessionRows()
    const q = (token: string) => `?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`
    const ok = await fetch(url() + q(VERIFY), { headers: { 'Accept-Encoding': 'gzip', Cookie: cookieOf(admin), 'Sec-Fetch-Site': 'cross-site' } })
    expect(ok.status).to.equal(200)
    expect(ok.headers.get('content-type')).to.equal('text/plain; charset=utf-8')
    expect(await ok.text()).to.equal('1158201444')
    untouchedByBrowserMiddleware(ok)
    expect(ok.headers.get('etag')).to.equal(null)
    const no = await fetch(url() + q('wrong'), { headers: { Cookie: cookieOf(admin) } })
    expect(no.status).to.equal(403)
    expect(await no.text()).to.equal('Verification failed')
    untouchedByBrowserMiddleware(no)
    expect(await sessionRows()).to.deep.equal(before)
  })

  it("counts the webhook in the metrics under its route; the admins' chats stay on the browser's path", async () => {
    const raw = JSON.stringify(statusEvent('wamid.OUT-x', 'read', '233241230004'))
    const res = await post(raw, signed(raw))
    expect(res.status).to.equal(200)
    untouchedByBrowserMiddleware(res)
    const text = await (await fetch(`${chat.wa.url}/metrics`)).text()
    expect(text).to.match(/datahub_http_requests_total\{method="POST",route="\/api\/whatsapp\/webhook",status="200"\} [1-9]/)
    const admin = await adminClient(chat.wa.url)
    const chats = await fetch(`${chat.wa.url}/api/whatsapp/chats`, { headers: { Cookie: cookieOf(admin), 'Accept-Encoding': 'gzip' } })
    expect(chats.status).to.equal(200)
    expect(chats.headers.get('vary')).to.include('Accept-Encoding')
    expect((await fetch(`${chat.wa.url}/api/whatsapp/chats`)).status).to.equal(401)
  })
})
