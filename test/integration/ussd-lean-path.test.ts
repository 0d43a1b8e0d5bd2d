import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import { adminClient } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { cookieOf, sessionRows, untouchedByBrowserMiddleware } from '../helpers/lean-path.ts'
import { resetDb } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'

const SECRET = 'ussd-shared-secret-lean-path'

// The telco's USSD hop takes the lean path mounted before the browser's middleware (ADR 0089): the gate (the
// shared secret or the address) is its proof; the answers are those the whole stack gave, without a session's
// read, compression or an ETag, while the caller waits on the phone's screen.
describe("the telco's USSD hop on the lean path", function () {
  this.timeout(60_000)
  let gw: Running
  const at = (fields: Record<string, string>, query = `?secret=${SECRET}`, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}/ussd/africastalking${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Encoding': 'gzip, br', ...headers },
      body: new URLSearchParams(fields).toString()
    })
  const dial = (phone: string, text = '') => ({ sessionId: `ATUid_lean_${phone}`, serviceCode: '*920*44#', phoneNumber: phone, networkCode: '62001', text })

  before(async () => {
    gw = await bootInstance({ USSD_SHARED_SECRET: SECRET })
  })
  after(async () => {
    await gw?.stop()
  })
  beforeEach(resetDb)

  it('answers a dial with the same screen: 200 text/plain CON, the request id, no ETag, no cookie, no session row', async () => {
    await ussdAgent({ phone: '0241170001' })
    const res = await at(dial('+233241170001'), `?secret=${SECRET}`, { 'x-request-id': 'ussd-lean-1' })
    expect(res.status).to.equal(200)
    expect(await res.text()).to.equal('CON Welcome to Data Hub\nEnter your 4-digit agent PIN:')
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8')
    expect(res.headers.get('x-request-id')).to.equal('ussd-lean-1')
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff')
    untouchedByBrowserMiddleware(res)
    expect(res.headers.get('etag')).to.equal(null)
    expect(await sessionRows()).to.deep.equal([])
  })

  it("carries a signed-in browser's session cookie and a cross-site Origin: the hop goes on, the session is neither read nor moved", async () => {
    const { pin } = await ussdAgent({ phone: '0241170002' })
    const admin = await adminClient(gw.url)
    const before = await sessionRows()
    expect(before).to.have.length(1)
    const headers = { Cookie: cookieOf(admin), Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' }
    expect(await (await at(dial('+233241170002'), `?secret=${SECRET}`, headers)).text()).to.match(/^CON Welcome/)
    const res = await at(dial('+233241170002', pin), `?secret=${SECRET}`, headers)
    expect(res.status).to.equal(200)
    expect(await res.text()).to.match(/^CON Data Hub\n1\. Buy data/)
    untouchedByBrowserMiddleware(res)
    expect(await sessionRows()).to.deep.equal(before)
  })

  it("refuses a caller without the secret, or with another, with the same 403 'END Not allowed.'; an unknown gateway is 404", async () => {
    for (const query of ['', '?secret=wrong']) {
      const res = await at(dial('+233241170003'), query)
      expect(res.status).to.equal(403)
      expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8')
      expect(await res.text()).to.equal('END Not allowed.')
      untouchedByBrowserMiddleware(res)
    }
    const arkesel = await fetch(`${gw.url}/ussd/arkesel`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(arkesel.status).to.equal(403)
    expect(await arkesel.json()).to.deep.equal({ message: 'Not allowed.', continueSession: false })
    untouchedByBrowserMiddleware(arkesel)
    const unknown = await fetch(`${gw.url}/ussd/nowhere`, { method: 'POST', headers: { 'x-ussd-secret': SECRET } })
    expect(unknown.status).to.equal(404)
    expect(await unknown.text()).to.equal('END Unknown USSD gateway.')
    untouchedByBrowserMiddleware(unknown)
  })

  it("answers bad input as before: a missing field 400 END, NUL 400, malformed JSON 400, a too large form 413 (the app's shapes)", async () => {
    const missing = await at({ phoneNumber: '+233241170004', text: '' })
    expect(missing.status).to.equal(400)
    expect(await missing.text()).to.equal('END Invalid request: sessionId is required')
    untouchedByBrowserMiddleware(missing)
    const nul = await at(dial('+233241170004', '1\u00002'))
    expect(nul.status).to.equal(400)
    expect((await nul.json()).error).to.match(/NUL/)
    untouchedByBrowserMiddleware(nul)
    const malformed = await fetch(`${gw.url}/ussd/arkesel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-ussd-secret': SECRET },
      body: '{"sessionID":'
    })
    expect(malformed.status).to.equal(400)
    expect(await malformed.json()).to.deep.equal({ error: 'Malformed JSON body' })
    untouchedByBrowserMiddleware(malformed)
    const large = await at({ ...dial('+233241170004'), pad: 'x'.repeat(21 * 1024) })
    expect(large.status).to.equal(413)
    expect(await large.json()).to.deep.equal({ error: 'Request body too large' })
    untouchedByBrowserMiddleware(large)
  })

  it('speaks the JSON gateway the same: 200 JSON with the echo, no ETag; the metrics count the hop', async () => {
    await ussdAgent({ phone: '0241170005' })
    const res = await fetch(`${gw.url}/ussd/arkesel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-ussd-secret': SECRET, 'Accept-Encoding': 'gzip' },
      body: JSON.stringify({ sessionID: 'ark-lean', userID: 'DATAHUB', newSession: true, msisdn: '233241170005', userData: '*920*44#', network: 'MTN' })
    })
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8')
    expect(await res.json()).to.deep.equal({
      sessionID: 'ark-lean',
      userID: 'DATAHUB',
      msisdn: '233241170005',
      message: 'Welcome to Data Hub\nEnter your 4-digit agent PIN:',
      continueSession: true
    })
    untouchedByBrowserMiddleware(res)
    expect(res.headers.get('etag')).to.equal(null)
    const text = await (await fetch(`${gw.url}/metrics`)).text()
    expect(text).to.match(/datahub_http_requests_total\{method="POST",route="\/ussd\/:gateway",status="200"\} [1-9]/)
  })
})
