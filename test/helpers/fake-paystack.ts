import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerPayments } from './fake-paystack-payments.ts'
import { answerTransfers } from './fake-paystack-transfers.ts'
import { newState, NEXT, dataOf, transferData } from './fake-paystack-state.ts'
import type { FakePaystack, FakeTransfer } from './fake-paystack-types.ts'

export type { FakePaystack, Trouble } from './fake-paystack-types.ts'

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
export async function startFakePaystack(secret = 'sk_test_x'): Promise<FakePaystack> {
  const s = newState()
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
      s.requests.push({ method: req.method ?? '', path, query: new URL(req.url ?? '/', 'http://x').searchParams, body, auth: req.headers.authorization })
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(payload))
      }
      if (req.headers.authorization !== `Bearer ${secret}`) return send(401, { status: false, message: 'Invalid key' })

      const asked = { s, req, res, path, body, send }
      for (const answer of [answerPayments, answerTransfers]) if (answer(asked) !== NEXT) return
      send(404, { status: false, message: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const sign = (body: string) => crypto.createHmac('sha512', secret).update(body).digest('hex')

  return {
    url,
    secret,
    txns: s.txns,
    transfers: s.transfers,
    recipients: s.recipients,
    unknownNumbers: s.unknownNumbers,
    transferTrouble(t) {
      s.transferTrouble = t
    },
    verifyTrouble(t) {
      s.verifyTrouble = t
    },
    refundTrouble(t) {
      s.refundTrouble = t
    },
    resolveTrouble(t) {
      s.resolveTrouble = t
    },
    refuseNextTransfer(message) {
      s.refuseTransfer = message
    },
    completeTransfer(reference, status) {
      const t = s.transfers.get(reference)
      if (!t) throw new Error(`fake paystack: no transfer ${reference}`)
      t.status = status
    },
    transferEvent(reference, event, opts = {}) {
      const t = s.transfers.get(reference)
      if (!t) throw new Error(`fake paystack: no transfer ${reference}`)
      const status = event.slice('transfer.'.length)
      const body = JSON.stringify({
        event,
        data: {
          ...transferData(s, { ...t, status: status as FakeTransfer['status'] }),
          amount: opts.amount ?? t.amount,
          ...(status === 'failed' ? { reason_for_failure: 'Recipient account could not be credited' } : {})
        }
      })
      return { body, signature: sign(body) }
    },
    requests: s.requests,
    refunds: s.refunds,
    otpProviders: s.otpProviders,
    get refundMode() {
      return s.refundMode
    },
    set refundMode(m) {
      s.refundMode = m
    },
    get maxPerPage() {
      return s.maxPerPage
    },
    set maxPerPage(n) {
      s.maxPerPage = n
    },
    trouble(t) {
      s.trouble = t
    },
    plant(p) {
      s.txns.set(p.reference, {
        id: s.nextId++,
        currency: 'GHS',
        email: 'x@example.com',
        channel: 'mobile_money',
        status: 'success',
        createdAt: new Date(),
        ...p
      })
    },
    complete(reference, status, opts = {}) {
      const t = s.txns.get(reference)
      if (!t) throw new Error(`fake paystack: no transaction ${reference}`)
      t.status = status
      if (opts.amount !== undefined) t.paidAmount = opts.amount
      if (opts.currency !== undefined) t.paidCurrency = opts.currency
    },
    webhook(reference, opts = {}) {
      const t = s.txns.get(reference)
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
