import { expect } from 'chai'
import crypto from 'node:crypto'
import { REMEMBERED_PAYMENTS } from '../../server/http/ctx.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

const PAID = 'dh_paid'

async function sessionRows(): Promise<number> {
  const [rows] = await app().db.sequelize.query('SELECT count(*)::int AS n FROM session')
  return (rows as { n: number }[])[0]!.n
}

/** A session as express-session saved it before the payments moved to their cookie: its row and its signed cookie. */
async function oldSession(startedPayments: string[]): Promise<string> {
  const sid = crypto.randomBytes(18).toString('base64url')
  const expires = new Date(Date.now() + 30 * 60_000)
  const sess = { cookie: { originalMaxAge: 30 * 60_000, expires: expires.toISOString(), httpOnly: true, path: '/', sameSite: 'lax' }, startedPayments }
  await app().db.sequelize.query('INSERT INTO session (sid, sess, expire) VALUES (:sid, :sess, :expire)', {
    replacements: { sid, sess: JSON.stringify(sess), expire: expires }
  })
  // cookie-signature's format: the id, a dot, the HMAC-SHA256 in base64 without its padding.
  const mac = crypto.createHmac('sha256', testEnv().SESSION_SECRET!).update(sid).digest('base64').replace(/=+$/, '')
  return encodeURIComponent(`s:${sid}.${mac}`)
}

/** A `dh_paid` cookie as the app signs it (ADR 0062), issued `agoMs` ago: only a test that knows the secret can make one. */
function paidCookieIssued(agoMs: number, refs: string[]): string {
  const key = crypto.createHmac('sha256', testEnv().SESSION_SECRET!).update(PAID).digest()
  const body = [Math.floor((Date.now() - agoMs) / 1000).toString(36), ...refs].join('~')
  return `${body}~${crypto.createHmac('sha256', key).update(body).digest('base64url')}`
}

describe("a browser's payments in a signed cookie, without a session", () => {
  beforeEach(resetDb)

  const order = async (visitor: Client, pkgId: number, n: number) => {
    const phone = `02412${String(n).padStart(5, '0')}`
    const r = await visitor.post('/api/orders', { packageId: pkgId, recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' })
    expect(r.status, r.text).to.equal(201)
    return { tid: r.body.payment.transactionId as string, res: r }
  }
  const status = (c: Client, tid: string) => c.get(`/api/payment/status/${tid}`).then((r) => r.status)

  it("a visitor's order sets the signed cookie, no session cookie and no session row", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const { tid, res } = await order(visitor, pkg.id, 1)
    const set = res.headers.getSetCookie()
    expect(
      set.filter((c) => c.startsWith('datahub.sid=')),
      set.join('\n')
    ).to.deep.equal([])
    const paid = set.filter((c) => c.startsWith(`${PAID}=`))
    expect(paid, set.join('\n')).to.have.length(1)
    expect(paid[0]).to.match(/; Max-Age=1800; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(visitor.cookies.get(PAID)).to.include(`~${tid}~`)
    expect(await sessionRows()).to.equal(0)
    expect(await status(visitor, tid)).to.equal(200)
    // A second order keeps the first: both are this browser's, still without a session.
    const second = await order(visitor, pkg.id, 2)
    expect(await status(visitor, tid)).to.equal(200)
    expect(await status(visitor, second.tid)).to.equal(200)
    expect(await sessionRows()).to.equal(0)
  })

  it('another browser, or one whose cookie names a payment it did not start, reads neither', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const mine = await order(visitor, pkg.id, 1)
    const theirs = await order(new Client(), pkg.id, 2)
    expect(await status(new Client(), mine.tid)).to.equal(404)
    // The other payment's reference put into this browser's cookie, its signature kept.
    const value = visitor.cookies.get(PAID)!
    const cut = value.lastIndexOf('~')
    const tampered = new Client()
    tampered.cookies.set(PAID, `${value.slice(0, cut)}~${theirs.tid}${value.slice(cut)}`)
    expect(await status(tampered, theirs.tid)).to.equal(404)
    // A bad signature is no payments at all, never an error page.
    expect(await status(tampered, mine.tid)).to.equal(404)
    const unsigned = new Client()
    unsigned.cookies.set(PAID, value.slice(0, cut))
    expect(await status(unsigned, mine.tid)).to.equal(404)
    expect(await status(visitor, mine.tid)).to.equal(200)
  })

  it('a browser whose session from before the cookie holds its payment still reads it, and keeps it after a new order', async () => {
    const pkg = await createPackage()
    const { tid } = await order(new Client(), pkg.id, 1)
    const returning = new Client()
    returning.cookies.set('datahub.sid', await oldSession([tid]))
    expect(await status(returning, tid)).to.equal(200)
    const next = await order(returning, pkg.id, 2)
    expect(await status(returning, tid)).to.equal(200)
    expect(await status(returning, next.tid)).to.equal(200)
  })

  it(`remembers at most ${REMEMBERED_PAYMENTS} payments, the newest`, async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const tids: string[] = []
    for (let n = 0; n <= REMEMBERED_PAYMENTS; n++) tids.push((await order(visitor, pkg.id, n)).tid)
    expect(visitor.cookies.get(PAID)!.split('~')).to.have.length(REMEMBERED_PAYMENTS + 2)
    expect(await status(visitor, tids[0]!)).to.equal(404)
    expect(await status(visitor, tids[1]!)).to.equal(200)
    expect(await status(visitor, tids.at(-1)!)).to.equal(200)
  })

  it('a cookie past the idle timeout opens nothing; one in use is written again with a new issue time once it is a minute old', async () => {
    const pkg = await createPackage()
    const { tid } = await order(new Client(), pkg.id, 1)
    const at = (agoMs: number) => {
      const c = new Client()
      c.cookies.set(PAID, paidCookieIssued(agoMs, [tid]))
      return c
    }
    expect(await status(at(31 * 60_000), tid)).to.equal(404)
    // Five minutes old: read, and renewed on the answer.
    const used = at(5 * 60_000)
    const before = used.cookies.get(PAID)!
    const r = await used.get(`/api/payment/status/${tid}`)
    expect(r.status).to.equal(200)
    expect(r.headers.getSetCookie().filter((c) => c.startsWith(`${PAID}=`))).to.have.length(1)
    const renewed = used.cookies.get(PAID)!
    expect(renewed).to.not.equal(before)
    expect(Number.parseInt(renewed.split('~')[0]!, 36) * 1000).to.be.greaterThan(Date.now() - 60_000)
    // Fresh: read, and not written again.
    const fresh = await at(0).get(`/api/payment/status/${tid}`)
    expect(fresh.status).to.equal(200)
    expect(fresh.headers.getSetCookie().filter((c) => c.startsWith(`${PAID}=`))).to.deep.equal([])
  })
})
