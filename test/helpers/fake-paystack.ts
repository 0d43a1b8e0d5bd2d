import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for api.paystack.co speaking its documented requests and responses:
 * POST /transaction/initialize, GET /transaction/verify/:reference, POST /charge (mobile money),
 * GET /charge/:reference, POST /charge/submit_otp, POST /refund, GET /refund, GET /transaction
 * (from/to, paged), and the Transfers API: GET /bank?currency=GHS&type=mobile_money, GET /bank/resolve,
 * POST /transferrecipient, POST /transfer (one transfer per reference), GET /transfer/verify/:reference.
 * Tests decide each payment's fate with complete(), make the next charge misbehave
 * with trouble() (timeout, 429, 5xx, non-JSON, reset, duplicate reference), and build signed
 * events with webhook() / event().
 */
export type Trouble = { kind: '429' | '502' | 'nonjson' | 'reset' | 'silence' | 'slow'; ms?: number; create?: boolean }
export type ResolveTrouble = { kind: '429' | '502' | 'nonjson' | 'reset' }

export interface FakeRefund {
  id: number
  reference: string
  amount: number
  status: 'pending' | 'processed' | 'failed'
}
export interface FakeTxn {
  id: number
  reference: string
  amount: number
  currency: string
  email: string
  channel: 'card' | 'mobile_money'
  provider?: string
  phone?: string
  status: 'abandoned' | 'pay_offline' | 'success' | 'failed' | 'pending' | 'send_otp' | 'reversed'
  paidAmount?: number
  /** undefined: as charged; null: the answer carries no currency. */
  paidCurrency?: string | null
  createdAt: Date
}

export interface FakeTransfer {
  id: number
  reference: string
  amount: number
  currency: string
  recipient: string
  reason: string
  transfer_code: string
  /** Paystack's transfer status words (abandoned, blocked, rejected: never sent). */
  status: 'pending' | 'success' | 'failed' | 'reversed' | 'otp' | 'abandoned' | 'blocked' | 'rejected'
}

export interface FakePaystack {
  /** Transfers made, by reference (Paystack keeps one per reference). */
  transfers: Map<string, FakeTransfer>
  recipients: Map<string, { recipient_code: string; account_number: string; bank_code: string; name: string }>
  /** Numbers /bank/resolve does not know (a clear refusal). */
  unknownNumbers: Set<string>
  /** The next POST /transfer misbehaves (create: the transfer is still made), or GET /transfer/verify does. */
  transferTrouble(t: Trouble | null): void
  verifyTrouble(t: Trouble | null): void
  /** The next POST /refund or GET /refund misbehaves (nothing is made). */
  refundTrouble(t: Trouble | null): void
  /** The next POST /transfer is refused outright (e.g. 'Your balance is not enough to fulfil this request'). */
  refuseNextTransfer(message: string | null): void
  completeTransfer(reference: string, status: Exclude<FakeTransfer['status'], 'pending'>): void
  /** The next GET /bank/resolve misbehaves this way (an answer, never a late one). */
  resolveTrouble(t: ResolveTrouble | null): void
  /** A signed transfer.success / transfer.failed / transfer.reversed event for a transfer. */
  transferEvent(
    reference: string,
    event: 'transfer.success' | 'transfer.failed' | 'transfer.reversed',
    opts?: { amount?: number }
  ): { body: string; signature: string }
  url: string
  secret: string
  txns: Map<string, FakeTxn>
  requests: { method: string; path: string; query: URLSearchParams; body: any; auth: string | undefined }[]
  /** The most the list endpoint returns per page, whatever perPage asks (Paystack caps it too). */
  maxPerPage: number
  refunds: FakeRefund[]
  complete(reference: string, status: 'success' | 'failed' | 'reversed', opts?: { amount?: number; currency?: string | null }): void
  webhook(reference: string, opts?: { amount?: number; currency?: string | null }): { body: string; signature: string }
  /** Any signed event: { event, data }. */
  event(event: string, data: unknown): { body: string; signature: string }
  /** The next POST /charge misbehaves this way (create: the charge still reaches "Paystack"). */
  trouble(t: Trouble | null): void
  /** Networks (Paystack provider codes) whose charges ask for a voucher first (send_otp). */
  otpProviders: Set<string>
  /** How the next refunds end: 'processed' at once, 'pending' (webhook later) or refused. */
  refundMode: 'processed' | 'pending' | 'refuse' | 'lost'
  /** A transaction that exists only at the gateway (for reconciliation tests). */
  plant(t: Partial<FakeTxn> & { reference: string; amount: number }): void
  sign(body: string): string
  close(): Promise<void>
}

export async function startFakePaystack(secret = 'sk_test_x'): Promise<FakePaystack> {
  const txns = new Map<string, FakeTxn>()
  const requests: FakePaystack['requests'] = []
  const refunds: FakeRefund[] = []
  const otpProviders = new Set<string>()
  let nextId = 4_000_000_000
  let trouble: Trouble | null = null
  const transfers = new Map<string, FakeTransfer>()
  const recipients = new Map<string, { recipient_code: string; account_number: string; bank_code: string; name: string }>()
  const unknownNumbers = new Set<string>()
  let transferTrouble: Trouble | null = null
  let verifyTrouble: Trouble | null = null
  let refundTrouble: Trouble | null = null
  let resolveTrouble: ResolveTrouble | null = null
  let refuseTransfer: string | null = null
  const BANKS = [
    { id: 28, name: 'MTN', slug: 'mtn-gh', code: 'MTN', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true },
    { id: 29, name: 'Vodafone', slug: 'vodafone-gh', code: 'VOD', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true },
    { id: 30, name: 'AirtelTigo', slug: 'airteltigo-gh', code: 'ATL', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true }
  ]
  const transferData = (t: FakeTransfer) => ({
    ...t,
    domain: 'test',
    source: 'balance',
    recipient: recipients.get(t.recipient) ? { recipient_code: t.recipient, type: 'mobile_money' } : t.recipient,
    createdAt: new Date().toISOString()
  })
  /** Answers the way a Trouble says; true when it took the answer over. */
  const misbehave = (tr: Trouble, req: http.IncomingMessage, res: http.ServerResponse, ok: () => void): boolean => {
    if (tr.kind === '429')
      return (res.writeHead(429, { 'Content-Type': 'application/json' }), res.end(JSON.stringify({ status: false, message: 'Too Many Requests' })), true)
    if (tr.kind === '502') return (res.writeHead(502, { 'Content-Type': 'text/html' }), res.end('<html><body>502 Bad Gateway</body></html>'), true)
    if (tr.kind === 'nonjson') return (res.writeHead(200, { 'Content-Type': 'text/html' }), res.end('<html>upstream error</html>'), true)
    if (tr.kind === 'reset') return (req.socket.destroy(), true)
    if (tr.kind === 'silence') return (setTimeout(() => req.socket.destroy(), tr.ms ?? 20_000).unref(), true)
    if (tr.kind === 'slow') return (setTimeout(ok, tr.ms ?? 20_000).unref(), true)
    return false
  }
  const state = { refundMode: 'processed' as FakePaystack['refundMode'], maxPerPage: 100 }

  const dataOf = (t: FakeTxn) => ({
    id: t.id,
    domain: 'test',
    status: t.status,
    reference: t.reference,
    amount: t.status === 'success' ? (t.paidAmount ?? t.amount) : t.amount,
    ...(t.status === 'success' && t.paidCurrency !== undefined ? (t.paidCurrency === null ? {} : { currency: t.paidCurrency }) : { currency: t.currency }),
    channel: t.channel,
    gateway_response: t.status === 'success' ? 'Approved' : t.status === 'failed' ? 'Declined' : 'The transaction was not completed',
    display_text:
      t.status === 'pay_offline'
        ? 'Please complete authorization process on your mobile phone'
        : t.status === 'send_otp'
          ? 'Please dial *110# to generate a voucher code. Then input the voucher'
          : undefined,
    created_at: t.createdAt.toISOString(),
    paid_at: t.status === 'success' ? new Date().toISOString() : null,
    customer: { email: t.email }
  })

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: any = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        body = null
      }
      const path = new URL(req.url ?? '/', 'http://x').pathname
      requests.push({ method: req.method ?? '', path, query: new URL(req.url ?? '/', 'http://x').searchParams, body, auth: req.headers.authorization })
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(payload))
      }
      if (req.headers.authorization !== `Bearer ${secret}`) return send(401, { status: false, message: 'Invalid key' })

      if (req.method === 'POST' && path === '/transaction/initialize') {
        if (!body?.email || !Number.isInteger(Number(body.amount)) || Number(body.amount) <= 0)
          return send(400, { status: false, message: 'Invalid amount or email' })
        const reference = String(body.reference ?? crypto.randomUUID())
        if (txns.has(reference)) return send(400, { status: false, message: 'Duplicate Transaction Reference' })
        const access = crypto.randomBytes(6).toString('hex')
        txns.set(reference, {
          id: nextId++,
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
        const t = txns.get(decodeURIComponent(m[1]!))
        if (!t) return send(400, { status: false, message: 'Transaction reference not found', code: 'transaction_not_found' })
        return send(200, { status: true, message: 'Verification successful', data: dataOf(t) })
      }
      if (req.method === 'POST' && path === '/charge') {
        const mm = body?.mobile_money
        if (!body?.email || !Number.isInteger(Number(body.amount)) || !mm?.phone || !['mtn', 'vod', 'atl'].includes(mm.provider)) {
          return send(400, { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid mobile money details' } })
        }
        const reference = String(body.reference)
        if (txns.has(reference)) return send(400, { status: false, message: 'Duplicate Transaction Reference' })
        if (!/^[^\s@]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(String(body.email)))
          return send(400, { status: false, message: 'Invalid Email Address Passed' })
        // A well-formed Ghanaian number the network does not know: Paystack's clear refusal.
        if (mm.phone === '0240000000')
          return send(400, { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid phone number' } })
        const t: FakeTxn = {
          id: nextId++,
          reference,
          amount: Number(body.amount),
          currency: body.currency ?? 'GHS',
          email: body.email,
          channel: 'mobile_money',
          provider: mm.provider,
          phone: mm.phone,
          status: otpProviders.has(mm.provider) ? 'send_otp' : 'pay_offline',
          createdAt: new Date()
        }
        const tr = trouble
        trouble = null
        if (tr) {
          if (tr.create !== false) txns.set(reference, t)
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
          if (tr.kind === 'slow')
            return void setTimeout(() => send(200, { status: true, message: 'Charge attempted', data: dataOf(t) }), tr.ms ?? 20_000).unref()
        }
        txns.set(reference, t)
        return send(200, { status: true, message: 'Charge attempted', data: dataOf(t) })
      }
      if (req.method === 'POST' && path === '/charge/submit_otp') {
        const t = txns.get(String(body?.reference ?? ''))
        if (!t) return send(400, { status: false, message: 'Charge not found' })
        if (t.status !== 'send_otp') return send(400, { status: false, message: 'Charge is not awaiting an OTP' })
        if (!/^\d{6}$/.test(String(body?.otp ?? '')) || body.otp === '000000') return send(400, { status: false, message: 'Invalid voucher code' })
        t.status = 'pay_offline'
        return send(200, { status: true, message: 'Charge attempted', data: dataOf(t) })
      }
      if (path === '/refund' && refundTrouble) {
        const tr = refundTrouble
        refundTrouble = null
        if (misbehave(tr, req, res, () => send(503, { status: false, message: 'Try again' }))) return
      }
      if (req.method === 'POST' && path === '/refund') {
        const key = String(body?.transaction ?? '')
        const t = txns.get(key) ?? [...txns.values()].find((x) => String(x.id) === key)
        if (!t) return send(400, { status: false, message: 'Transaction not found' })
        if (t.status !== 'success') return send(400, { status: false, message: 'Cannot refund a transaction that was not successful' })
        const paid = t.paidAmount ?? t.amount
        const done = refunds.filter((r) => r.reference === t.reference && r.status !== 'failed').reduce((a, r) => a + r.amount, 0)
        const amount = body.amount === undefined ? paid - done : Number(body.amount)
        if (done >= paid) return send(400, { status: false, message: 'Transaction has been fully reversed' })
        if (!Number.isInteger(amount) || amount <= 0 || amount > paid - done)
          return send(400, { status: false, message: 'Refund amount cannot be greater than transaction amount' })
        if (state.refundMode === 'refuse') return send(400, { status: false, message: 'Refund could not be processed' })
        const r: FakeRefund = { id: nextId++, reference: t.reference, amount, status: state.refundMode === 'pending' ? 'pending' : 'processed' }
        refunds.push(r)
        // 'lost': the refund is made but the answer never comes back (a crash or timeout on our side).
        if (state.refundMode === 'lost') {
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
        const list = refunds.filter((r) => !ref || r.reference === ref)
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
        const perPage = Math.min(Number(sp.get('perPage') ?? 50), state.maxPerPage)
        const page = Math.max(1, Number(sp.get('page') ?? 1))
        const all = [...txns.values()].filter((t) => t.createdAt >= from && t.createdAt < to).sort((a, b) => a.id - b.id)
        const slice = all.slice((page - 1) * perPage, page * perPage)
        return send(200, {
          status: true,
          message: 'Transactions retrieved',
          data: slice.map(dataOf),
          meta: { total: all.length, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) }
        })
      }
      // Transfers API
      if (req.method === 'GET' && path === '/bank') {
        const sp = new URL(req.url ?? '/', 'http://x').searchParams
        return send(200, {
          status: true,
          message: 'Banks retrieved',
          data: BANKS.filter((b) => (!sp.get('currency') || b.currency === sp.get('currency')) && (!sp.get('type') || b.type === sp.get('type')))
        })
      }
      if (req.method === 'GET' && path === '/bank/resolve') {
        const sp = new URL(req.url ?? '/', 'http://x').searchParams
        const tr = resolveTrouble
        resolveTrouble = null
        if (tr && misbehave(tr, req, res, () => undefined)) return
        const number = sp.get('account_number') ?? ''
        if (!BANKS.some((b) => b.code === sp.get('bank_code'))) return send(422, { status: false, message: 'Unknown bank code' })
        if (!/^0\d{9}$/.test(number) || unknownNumbers.has(number))
          return send(422, { status: false, message: 'Could not resolve account name. Check parameters or try again.' })
        return send(200, {
          status: true,
          message: 'Account number resolved',
          data: { account_number: number, account_name: 'KOFI MENSAH', bank_id: BANKS.find((b) => b.code === sp.get('bank_code'))!.id }
        })
      }
      if (req.method === 'POST' && path === '/transferrecipient') {
        if (
          body?.type !== 'mobile_money' ||
          body?.currency !== 'GHS' ||
          !body?.name ||
          !/^0\d{9}$/.test(String(body?.account_number ?? '')) ||
          !BANKS.some((b) => b.code === body?.bank_code)
        ) {
          return send(400, { status: false, message: 'Invalid recipient details' })
        }
        const key = `${body.bank_code}:${body.account_number}`
        let rec = [...recipients.values()].find((r) => `${r.bank_code}:${r.account_number}` === key)
        if (!rec) {
          rec = {
            recipient_code: `RCP_${crypto.randomBytes(6).toString('hex')}`,
            account_number: body.account_number,
            bank_code: body.bank_code,
            name: body.name
          }
          recipients.set(rec.recipient_code, rec)
        }
        return send(201, {
          status: true,
          message: 'Transfer recipient created successfully',
          data: {
            active: true,
            currency: 'GHS',
            name: rec.name,
            recipient_code: rec.recipient_code,
            type: 'mobile_money',
            details: { account_number: rec.account_number, account_name: rec.name, bank_code: rec.bank_code }
          }
        })
      }
      if (req.method === 'POST' && path === '/transfer') {
        if (
          body?.source !== 'balance' ||
          !Number.isInteger(body?.amount) ||
          body.amount <= 0 ||
          !recipients.has(String(body?.recipient)) ||
          !/^[a-z0-9_-]{16,50}$/.test(String(body?.reference ?? ''))
        ) {
          return send(400, { status: false, message: 'Invalid transfer details' })
        }
        const reference = String(body.reference)
        if (transfers.has(reference)) return send(400, { status: false, message: 'Duplicate Transfer Reference' })
        if (refuseTransfer) {
          const message = refuseTransfer
          refuseTransfer = null
          return send(400, { status: false, message })
        }
        const t: FakeTransfer = {
          id: nextId++,
          reference,
          amount: body.amount,
          currency: body.currency ?? 'NGN',
          recipient: String(body.recipient),
          reason: String(body.reason ?? ''),
          transfer_code: `TRF_${crypto.randomBytes(6).toString('hex')}`,
          status: 'pending'
        }
        const tr = transferTrouble
        transferTrouble = null
        if (tr) {
          if (tr.create !== false) transfers.set(reference, t)
          if (misbehave(tr, req, res, () => send(200, { status: true, message: 'Transfer has been queued', data: transferData(t) }))) return
        }
        transfers.set(reference, t)
        return send(200, { status: true, message: 'Transfer has been queued', data: transferData(t) })
      }
      m = /^\/transfer\/verify\/([^/]+)$/.exec(path)
      if (req.method === 'GET' && m) {
        const t = transfers.get(decodeURIComponent(m[1]!))
        const tr = verifyTrouble
        verifyTrouble = null
        if (tr && misbehave(tr, req, res, () => send(200, { status: true, message: 'Transfer retrieved', data: t ? transferData(t) : null }))) return
        if (!t) return send(404, { status: false, message: 'Transfer not found' })
        return send(200, { status: true, message: 'Transfer retrieved', data: transferData(t) })
      }
      m = /^\/charge\/([^/]+)$/.exec(path)
      if (req.method === 'GET' && m) {
        const t = txns.get(decodeURIComponent(m[1]!))
        if (!t) return send(400, { status: false, message: 'Charge not found' })
        return send(200, { status: true, message: 'Reference check successful', data: dataOf(t) })
      }
      send(404, { status: false, message: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const sign = (body: string) => crypto.createHmac('sha512', secret).update(body).digest('hex')

  return {
    url,
    secret,
    txns,
    transfers,
    recipients,
    unknownNumbers,
    transferTrouble(t) {
      transferTrouble = t
    },
    verifyTrouble(t) {
      verifyTrouble = t
    },
    refundTrouble(t) {
      refundTrouble = t
    },
    resolveTrouble(t) {
      resolveTrouble = t
    },
    refuseNextTransfer(message) {
      refuseTransfer = message
    },
    completeTransfer(reference, status) {
      const t = transfers.get(reference)
      if (!t) throw new Error(`fake paystack: no transfer ${reference}`)
      t.status = status
    },
    transferEvent(reference, event, opts = {}) {
      const t = transfers.get(reference)
      if (!t) throw new Error(`fake paystack: no transfer ${reference}`)
      const status = event.slice('transfer.'.length)
      const body = JSON.stringify({
        event,
        data: {
          ...transferData({ ...t, status: status as FakeTransfer['status'] }),
          amount: opts.amount ?? t.amount,
          ...(status === 'failed' ? { reason_for_failure: 'Recipient account could not be credited' } : {})
        }
      })
      return { body, signature: sign(body) }
    },
    requests,
    refunds,
    otpProviders,
    get refundMode() {
      return state.refundMode
    },
    set refundMode(m) {
      state.refundMode = m
    },
    get maxPerPage() {
      return state.maxPerPage
    },
    set maxPerPage(n) {
      state.maxPerPage = n
    },
    trouble(t) {
      trouble = t
    },
    plant(p) {
      txns.set(p.reference, { id: nextId++, currency: 'GHS', email: 'x@example.com', channel: 'mobile_money', status: 'success', createdAt: new Date(), ...p })
    },
    complete(reference, status, opts = {}) {
      const t = txns.get(reference)
      if (!t) throw new Error(`fake paystack: no transaction ${reference}`)
      t.status = status
      if (opts.amount !== undefined) t.paidAmount = opts.amount
      if (opts.currency !== undefined) t.paidCurrency = opts.currency
    },
    webhook(reference, opts = {}) {
      const t = txns.get(reference)
      if (!t) throw new Error(`fake paystack: no transaction ${reference}`)
      const body = JSON.stringify({
        event: 'charge.success',
        data: {
          ...dataOf({ ...t, status: 'success', ...(opts.currency !== undefined ? { paidCurrency: opts.currency } : {}) }),
          amount: opts.amount ?? t.paidAmount ?? t.amount
        }
      })
      return { body, signature: sign(body) }
    },
    event(event, data) {
      const body = JSON.stringify({ event, data })
      return { body, signature: sign(body) }
    },
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * A second app instance on the test database configured with a Paystack key, pointed at a fresh fake
 * Paystack (the first instance stays on the simulator). Call in `before`; `stop` in `after`.
 */
export async function bootWithFakePaystack(env: Partial<import('../../server/env.ts').Env> = {}) {
  const { connect } = await import('../../models/db.ts')
  const { boot } = await import('../../main.ts')
  const { createLogger } = await import('../../server/lib/logger.ts')
  const { app, testEnv } = await import('./server.ts')
  const fake = await startFakePaystack('sk_test_x')
  const url = app().db.url
  const { sequelize, models } = connect(url)
  const ps = await boot({
    env: { ...testEnv(), PAYSTACK_SECRET_KEY: 'sk_test_x', PAYSTACK_BASE_URL: fake.url, PORT: 0, ...env },
    log: createLogger('silent'),
    db: { sequelize, models, url, close: async () => sequelize.close() }
  })
  return {
    fake,
    ps,
    stop: async () => {
      await ps.stop()
      await fake.close()
    }
  }
}
