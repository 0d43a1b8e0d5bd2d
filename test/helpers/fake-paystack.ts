import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for api.paystack.co speaking its documented requests and responses:
 * POST /transaction/initialize, GET /transaction/verify/:reference, POST /charge (mobile money),
 * GET /charge/:reference. Tests decide each payment's fate with complete(), and build signed
 * webhooks with webhook().
 */
export interface FakeTxn {
  id: number
  reference: string
  amount: number
  currency: string
  email: string
  channel: 'card' | 'mobile_money'
  provider?: string
  phone?: string
  status: 'abandoned' | 'pay_offline' | 'success' | 'failed' | 'pending'
  paidAmount?: number
}

export interface FakePaystack {
  url: string
  secret: string
  txns: Map<string, FakeTxn>
  requests: { method: string; path: string; body: any; auth: string | undefined }[]
  complete(reference: string, status: 'success' | 'failed', opts?: { amount?: number }): void
  webhook(reference: string, opts?: { amount?: number }): { body: string; signature: string }
  sign(body: string): string
  close(): Promise<void>
}

export async function startFakePaystack(secret = 'sk_test_x'): Promise<FakePaystack> {
  const txns = new Map<string, FakeTxn>()
  const requests: FakePaystack['requests'] = []
  let nextId = 4_000_000_000

  const dataOf = (t: FakeTxn) => ({
    id: t.id,
    domain: 'test',
    status: t.status,
    reference: t.reference,
    amount: t.status === 'success' ? (t.paidAmount ?? t.amount) : t.amount,
    currency: t.currency,
    channel: t.channel,
    gateway_response: t.status === 'success' ? 'Approved' : t.status === 'failed' ? 'Declined' : 'The transaction was not completed',
    display_text: t.status === 'pay_offline' ? 'Please complete authorization process on your mobile phone' : undefined,
    paid_at: t.status === 'success' ? new Date().toISOString() : null,
    customer: { email: t.email },
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
      requests.push({ method: req.method ?? '', path, body, auth: req.headers.authorization })
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(payload))
      }
      if (req.headers.authorization !== `Bearer ${secret}`) return send(401, { status: false, message: 'Invalid key' })

      if (req.method === 'POST' && path === '/transaction/initialize') {
        if (!body?.email || !Number.isInteger(Number(body.amount)) || Number(body.amount) <= 0) return send(400, { status: false, message: 'Invalid amount or email' })
        const reference = String(body.reference ?? crypto.randomUUID())
        if (txns.has(reference)) return send(400, { status: false, message: 'Duplicate Transaction Reference' })
        const access = crypto.randomBytes(6).toString('hex')
        txns.set(reference, { id: nextId++, reference, amount: Number(body.amount), currency: body.currency ?? 'GHS', email: body.email, channel: 'card', status: 'abandoned' })
        return send(200, { status: true, message: 'Authorization URL created', data: { authorization_url: `https://checkout.paystack.com/${access}`, access_code: access, reference } })
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
        const t: FakeTxn = { id: nextId++, reference, amount: Number(body.amount), currency: body.currency ?? 'GHS', email: body.email, channel: 'mobile_money', provider: mm.provider, phone: mm.phone, status: 'pay_offline' }
        txns.set(reference, t)
        return send(200, { status: true, message: 'Charge attempted', data: dataOf(t) })
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
    requests,
    complete(reference, status, opts = {}) {
      const t = txns.get(reference)
      if (!t) throw new Error(`fake paystack: no transaction ${reference}`)
      t.status = status
      if (opts.amount !== undefined) t.paidAmount = opts.amount
    },
    webhook(reference, opts = {}) {
      const t = txns.get(reference)
      if (!t) throw new Error(`fake paystack: no transaction ${reference}`)
      const body = JSON.stringify({ event: 'charge.success', data: { ...dataOf({ ...t, status: 'success' }), amount: opts.amount ?? t.paidAmount ?? t.amount } })
      return { body, signature: sign(body) }
    },
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
