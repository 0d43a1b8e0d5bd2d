import crypto from 'node:crypto'
import { dataOf, misbehave, NEXT } from './fake-paystack-state.ts'
import type { Asked, FakeRefund, FakeTxn } from './fake-paystack-types.ts'

/**
 * The fake Paystack's payment routes: POST /transaction/initialize, GET /transaction/verify/:reference,
 * POST /charge (mobile money), POST /charge/submit_otp, GET /charge/:reference, POST /refund, GET /refund
 * and GET /transaction (from/to, paged). NEXT when the request is none of them.
 */
export function answerPayments({ s, req, res, path, body, send }: Asked): unknown {
  if (req.method === 'POST' && path === '/transaction/initialize') {
    if (!body?.email || !Number.isInteger(Number(body.amount)) || Number(body.amount) <= 0)
      return send(400, { status: false, message: 'Invalid amount or email' })
    const reference = String(body.reference ?? crypto.randomUUID())
    if (s.txns.has(reference)) return send(400, { status: false, message: 'Duplicate Transaction Reference' })
    const access = crypto.randomBytes(6).toString('hex')
    s.txns.set(reference, {
      id: s.nextId++,
      reference,
      amount: Number(body.amount),
      currency: body.currency ?? 'GHS',
      email: body.email,
      channel: 'card',
      status: 'abandoned',
      createdAt: new Date()
    })
    return send(200, {
      status: true,
      message: 'Authorization URL created',
      data: { authorization_url: `https://checkout.paystack.com/${access}`, access_code: access, reference }
    })
  }
  let m = /^\/transaction\/verify\/([^/]+)$/.exec(path)
  if (req.method === 'GET' && m) {
    const t = s.txns.get(decodeURIComponent(m[1]!))
    if (!t) return send(400, { status: false, message: 'Transaction reference not found', code: 'transaction_not_found' })
    return send(200, { status: true, message: 'Verification successful', data: dataOf(t) })
  }
  if (req.method === 'POST' && path === '/charge') {
    const mm = body?.mobile_money
    if (!body?.email || !Number.isInteger(Number(body.amount)) || !mm?.phone || !['mtn', 'vod', 'atl'].includes(mm.provider)) {
      return send(400, { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid mobile money details' } })
    }
    const reference = String(body.reference)
    if (s.txns.has(reference)) return send(400, { status: false, message: 'Duplicate Transaction Reference' })
    if (!/^[^\s@]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(String(body.email)))
      return send(400, { status: false, message: 'Invalid Email Address Passed' })
    // A well-formed Ghanaian number the network does not know: Paystack's clear refusal.
    if (mm.phone === '0240000000') return send(400, { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid phone number' } })
    const t: FakeTxn = {
      id: s.nextId++,
      reference,
      amount: Number(body.amount),
      currency: body.currency ?? 'GHS',
      email: body.email,
      channel: 'mobile_money',
      provider: mm.provider,
      phone: mm.phone,
      status: s.otpProviders.has(mm.provider) ? 'send_otp' : 'pay_offline',
      createdAt: new Date()
    }
    const tr = s.trouble
    s.trouble = null
    if (tr) {
      if (tr.create !== false) s.txns.set(reference, t)
      if (tr.kind === '429') return send(429, { status: false, message: 'Too Many Requests' })
      if (tr.kind === '502') {
        res.writeHead(502, { 'Content-Type': 'text/html' })
        return res.end('<html><body>502 Bad Gateway</body></html>')
      }
      if (tr.kind === 'nonjson') {
        res.writeHead(200, { 'Content-Type': 'text/html' })
        return res.end('<html>upstream error</html>')
      }
      if (tr.kind === 'reset') return req.socket.destroy()
      if (tr.kind === 'silence') return void setTimeout(() => req.socket.destroy(), tr.ms ?? 20_000).unref()
      if (tr.kind === 'slow') return void setTimeout(() => send(200, { status: true, message: 'Charge attempted', data: dataOf(t) }), tr.ms ?? 20_000).unref()
    }
    s.txns.set(reference, t)
    return send(200, { status: true, message: 'Charge attempted', data: dataOf(t) })
  }
  if (req.method === 'POST' && path === '/charge/submit_otp') {
    const t = s.txns.get(String(body?.reference ?? ''))
    if (!t) return send(400, { status: false, message: 'Charge not found' })
    if (t.status !== 'send_otp') return send(400, { status: false, message: 'Charge is not awaiting an OTP' })
    if (!/^\d{6}$/.test(String(body?.otp ?? '')) || body.otp === '000000') return send(400, { status: false, message: 'Invalid voucher code' })
    t.status = 'pay_offline'
    return send(200, { status: true, message: 'Charge attempted', data: dataOf(t) })
  }
  if (path === '/refund' && s.refundTrouble) {
    const tr = s.refundTrouble
    s.refundTrouble = null
    if (misbehave(tr, req, res, () => send(503, { status: false, message: 'Try again' }))) return
  }
  if (req.method === 'POST' && path === '/refund') {
    const key = String(body?.transaction ?? '')
    const t = s.txns.get(key) ?? [...s.txns.values()].find((x) => String(x.id) === key)
    if (!t) return send(400, { status: false, message: 'Transaction not found' })
    if (t.status !== 'success') return send(400, { status: false, message: 'Cannot refund a transaction that was not successful' })
    const paid = t.paidAmount ?? t.amount
    const done = s.refunds.filter((r) => r.reference === t.reference && r.status !== 'failed').reduce((a, r) => a + r.amount, 0)
    const amount = body.amount === undefined ? paid - done : Number(body.amount)
    if (done >= paid) return send(400, { status: false, message: 'Transaction has been fully reversed' })
    if (!Number.isInteger(amount) || amount <= 0 || amount > paid - done)
      return send(400, { status: false, message: 'Refund amount cannot be greater than transaction amount' })
    if (s.refundMode === 'refuse') return send(400, { status: false, message: 'Refund could not be processed' })
    const r: FakeRefund = { id: s.nextId++, reference: t.reference, amount, status: s.refundMode === 'pending' ? 'pending' : 'processed' }
    s.refunds.push(r)
    // 'lost': the refund is made but the answer never comes back (a crash or timeout on our side).
    if (s.refundMode === 'lost') {
      r.status = 'processed'
      return void setTimeout(() => req.socket.destroy(), 5_000).unref()
    }
    return send(200, {
      status: true,
      message: 'Refund has been queued for processing',
      data: { id: r.id, transaction: { id: t.id, reference: t.reference, amount: paid }, amount, currency: 'GHS', status: r.status }
    })
  }
  if (req.method === 'GET' && path === '/refund') {
    const ref = new URL(req.url ?? '/', 'http://x').searchParams.get('reference')
    const list = s.refunds.filter((r) => !ref || r.reference === ref)
    return send(200, {
      status: true,
      message: 'Refunds retrieved',
      data: list.map((r) => ({ id: r.id, amount: r.amount, status: r.status, transaction: { reference: r.reference } }))
    })
  }
  if (req.method === 'GET' && path === '/transaction') {
    const sp = new URL(req.url ?? '/', 'http://x').searchParams
    const from = sp.get('from') ? new Date(sp.get('from')!) : new Date(0)
    const to = sp.get('to') ? new Date(sp.get('to')!) : new Date(8.64e15)
    const perPage = Math.min(Number(sp.get('perPage') ?? 50), s.maxPerPage)
    const page = Math.max(1, Number(sp.get('page') ?? 1))
    const all = [...s.txns.values()].filter((t) => t.createdAt >= from && t.createdAt < to).sort((a, b) => a.id - b.id)
    const slice = all.slice((page - 1) * perPage, page * perPage)
    return send(200, {
      status: true,
      message: 'Transactions retrieved',
      data: slice.map(dataOf),
      meta: { total: all.length, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) }
    })
  }
  m = /^\/charge\/([^/]+)$/.exec(path)
  if (req.method === 'GET' && m) {
    const t = s.txns.get(decodeURIComponent(m[1]!))
    if (!t) return send(400, { status: false, message: 'Charge not found' })
    return send(200, { status: true, message: 'Reference check successful', data: dataOf(t) })
  }
  return NEXT
}
