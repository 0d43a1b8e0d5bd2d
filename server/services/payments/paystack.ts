import axios, { type AxiosInstance, type AxiosResponse } from 'axios'
import crypto from 'node:crypto'
import type { Env } from '../../env.ts'
import type {
  CardStart,
  GatewayResult,
  GatewayStatus,
  GatewayTxn,
  MomoStart,
  PaymentProvider,
  PaymentRow,
  RefundAnswer,
  RefundCall,
  StartResult
} from './provider.ts'

/** Paystack's transaction/charge status words mapped onto ours. */
export function mapPaystackStatus(status: unknown): GatewayStatus {
  switch (String(status ?? '').toLowerCase()) {
    case 'success':
      return 'SUCCESS'
    case 'failed':
    // Reversed before we settled: the money did not stay, so the payment did not go through.
    case 'reversed':
      return 'FAILED'
    case 'pay_offline':
    case 'send_otp':
    case 'send_pin':
    case 'send_phone':
    case 'ongoing':
    case 'processing':
      return 'IN_PROGRESS'
    // 'abandoned', 'pending' and anything new stay open.
    default:
      return 'PENDING'
  }
}

/** Webhook signature: HMAC-SHA512 of the raw body with the secret key, compared in constant time. */
export function verifyPaystackSignature(secret: string, rawBody: Buffer | undefined, header: unknown): boolean {
  if (!rawBody || typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false
  const expected = crypto.createHmac('sha512', secret).update(rawBody).digest()
  const given = Buffer.from(header, 'hex')
  return given.length === expected.length && crypto.timingSafeEqual(given, expected)
}

interface PaystackData {
  status?: string
  reference?: string
  amount?: number
  currency?: string
  id?: number | string
  gateway_response?: string
  display_text?: string
  message?: string
  authorization_url?: string
}

export const WAITING_MESSAGE = 'Waiting for approval: check your phone and approve the payment.'

const NEEDS: Record<string, 'otp' | 'pin' | 'phone'> = { send_otp: 'otp', send_pin: 'pin', send_phone: 'phone' }

export function resultOf(data: PaystackData, fallbackMessage: string): GatewayResult {
  const status = mapPaystackStatus(data.status)
  return {
    status,
    message: String(data.display_text || data.gateway_response || data.message || fallbackMessage).slice(0, 300),
    extId: data.id !== undefined && data.id !== null ? String(data.id) : null,
    amountPesewas: typeof data.amount === 'number' ? data.amount : null,
    currency: data.currency ?? null,
    needs: NEEDS[String(data.status ?? '').toLowerCase()] ?? null
  }
}

/**
 * One call's answer sorted by what it tells us. 'word': Paystack answered with its JSON envelope
 * (status true, or a 4xx refusal of this request). 'unclear': timeouts, resets, 5xx, 429, a body that
 * is not Paystack's JSON: the request may or may not have taken effect (ADR 0013).
 */
export type PaystackAnswer =
  | { kind: 'word'; ok: boolean; httpStatus: number; message: string; data: PaystackData & Record<string, any>; raw: unknown; meta?: any; list?: any[] }
  | { kind: 'unclear'; reason: string }
type Answer = PaystackAnswer

/** One client for every Paystack call (charges, refunds, transfers): base URL and key from env, answers sorted by paystackCaller. */
export function paystackCaller(env: Env, http?: AxiosInstance) {
  const client =
    http ??
    axios.create({
      baseURL: env.PAYSTACK_BASE_URL.replace(/\/+$/, ''),
      timeout: env.PAYSTACK_TIMEOUT_MS ?? 15_000,
      headers: { Authorization: `Bearer ${env.PAYSTACK_SECRET_KEY}`, 'Content-Type': 'application/json' },
      validateStatus: () => true,
      // Paystack's body is read as text and parsed here, so a non-JSON answer is seen as such.
      transformResponse: [(d: unknown) => d],
      responseType: 'text'
    })
  return async function call(method: 'get' | 'post', url: string, body?: unknown, params?: Record<string, unknown>): Promise<Answer> {
    let res: AxiosResponse<string>
    try {
      res = await client.request({ method, url, data: body, params })
    } catch (err) {
      return { kind: 'unclear', reason: `Paystack unreachable: ${(err as Error).message}` }
    }
    if (res.status >= 500 || res.status === 429) return { kind: 'unclear', reason: `Paystack answered HTTP ${res.status}` }
    let payload: any
    try {
      payload = typeof res.data === 'string' ? JSON.parse(res.data) : res.data
    } catch {
      return { kind: 'unclear', reason: `Paystack answered HTTP ${res.status} with a body that is not JSON` }
    }
    if (!payload || typeof payload !== 'object' || typeof payload.status !== 'boolean')
      return { kind: 'unclear', reason: `Paystack answered HTTP ${res.status} without its envelope` }
    const message = String(payload.message ?? '')
    const data = Array.isArray(payload.data) ? {} : ((payload.data ?? {}) as PaystackData)
    return {
      kind: 'word',
      ok: res.status < 400 && payload.status === true,
      httpStatus: res.status,
      message,
      data,
      raw: payload.data ?? null,
      meta: payload.meta,
      list: Array.isArray(payload.data) ? payload.data : undefined
    }
  }
}

export function createPaystackProvider(env: Env, http?: AxiosInstance): PaymentProvider {
  const call = paystackCaller(env, http)
  const providerCode = { MTN: env.PAYSTACK_MOMO_MTN, TELECEL: env.PAYSTACK_MOMO_TELECEL, AIRTELTIGO: env.PAYSTACK_MOMO_AIRTELTIGO }

  const unclearStart = (reason: string): StartResult =>
    ({ status: 'PENDING', message: WAITING_MESSAGE, unclear: true, extId: null, note: reason }) as StartResult

  async function chargeAnswer(r: Answer, fallback: string): Promise<StartResult> {
    if (r.kind === 'unclear') return unclearStart(r.reason)
    // Our own retry after a timeout: the first charge reached Paystack, so the payer may have a prompt.
    if (/duplicate transaction reference/i.test(r.message)) return unclearStart(`Paystack: ${r.message}`)
    if (!r.ok && !r.data.status) return { status: 'FAILED', message: r.message || 'Payment request failed' }
    const res = resultOf(r.data, r.message || fallback)
    // A charge is never trusted as paid at start: only a verify or a signed webhook settles it.
    if (res.status === 'SUCCESS') return { ...res, status: 'IN_PROGRESS' }
    return res
  }

  return {
    name: 'paystack',
    label: 'Paystack',
    minCheckIntervalMs: (method) => (method === 'momo' ? 10_000 : 0),
    // Paystack gives a mobile-money payer about 180 s to approve; a minute more for the last answer to arrive.
    expireAfterMs: (method) => (method === 'momo' ? 240_000 : 30 * 60_000),
    async startCard(p: CardStart): Promise<StartResult> {
      const r = await call('post', '/transaction/initialize', {
        email: p.email,
        amount: p.amountPesewas,
        currency: 'GHS',
        reference: p.reference,
        ...(p.callbackUrl ? { callback_url: p.callbackUrl } : {})
      })
      // No checkout page was handed to the payer, so nothing can have been paid: a plain failure.
      if (r.kind === 'unclear') return { status: 'FAILED', message: 'Payment provider is unavailable. Please try again shortly.', authorizationUrl: null }
      if (!r.ok || !r.data.authorization_url)
        return { status: 'FAILED', message: r.message || 'Paystack authorization URL not received', authorizationUrl: null }
      return { status: 'PENDING', message: 'Redirecting to Paystack...', authorizationUrl: r.data.authorization_url, extId: null }
    },
    async startMomo(p: MomoStart): Promise<StartResult> {
      const r = await call('post', '/charge', {
        email: p.email,
        amount: p.amountPesewas,
        currency: 'GHS',
        reference: p.reference,
        mobile_money: { phone: p.phone, provider: providerCode[p.network] }
      })
      return chargeAnswer(r, 'USSD prompt sent! Check your phone and complete payment.')
    },
    async submitCode(p: PaymentRow, kind, code): Promise<StartResult> {
      const path = kind === 'otp' ? '/charge/submit_otp' : kind === 'pin' ? '/charge/submit_pin' : '/charge/submit_phone'
      const r = await call('post', path, { [kind]: code, reference: p.transaction_id })
      if (r.kind === 'unclear') return unclearStart(r.reason)
      if (!r.ok && !r.data.status)
        return { status: 'IN_PROGRESS', message: r.message || 'The code was not accepted. Please try again.', needs: kind, rejected: true } as StartResult
      const res = resultOf(r.data, r.message || WAITING_MESSAGE)
      return res.status === 'SUCCESS' ? { ...res, status: 'IN_PROGRESS' } : res
    },
    async check(p: PaymentRow): Promise<GatewayResult> {
      const ref = encodeURIComponent(p.transaction_id)
      const r = await call('get', `/transaction/verify/${ref}`)
      // Unknown reference, a refused check or no clear answer: nothing is known yet, so the payment stays open.
      if (r.kind === 'unclear') return { status: 'PENDING', message: p.message || WAITING_MESSAGE, unclear: true }
      if (!r.ok && !r.data.status) return { status: 'PENDING', message: p.message || r.message || 'Payment still pending', unclear: true }
      return resultOf(r.data, r.message)
    },
    async refund(c: RefundCall): Promise<RefundAnswer> {
      const r = await call('post', '/refund', { transaction: c.reference, amount: c.amountPesewas, merchant_note: c.reason.slice(0, 200) })
      return refundAnswer(r)
    },
    async findRefund(reference: string): Promise<RefundAnswer | null> {
      const r = await call('get', '/refund', undefined, { reference, perPage: 10 })
      if (r.kind === 'unclear') return { status: 'UNCLEAR', message: r.reason }
      const mine = (r.list ?? []).find((x: any) => String(x?.transaction?.reference ?? x?.transaction_reference ?? x?.reference ?? '') === reference)
      if (!mine) return null
      return { status: refundStatus(mine.status), extRefundId: mine.id != null ? String(mine.id) : null, message: `Refund ${mine.status}` }
    },
    async listTransactions(from: Date, to: Date): Promise<GatewayTxn[]> {
      const out: GatewayTxn[] = []
      for (let page = 1; page <= 1000; page++) {
        const r = await call('get', '/transaction', undefined, { from: from.toISOString(), to: to.toISOString(), perPage: 100, page })
        if (r.kind === 'unclear') throw new Error(r.reason)
        if (!r.ok) throw new Error(`Paystack refused the transaction list: ${r.message}`)
        for (const t of r.list ?? []) {
          out.push({ reference: String(t.reference), status: String(t.status), amountPesewas: Number(t.amount), currency: t.currency ?? null })
        }
        const pageCount = Number(r.meta?.pageCount ?? 1)
        if (!r.list?.length || page >= pageCount) break
      }
      return out
    }
  }
}

function refundStatus(s: unknown): RefundAnswer['status'] {
  const v = String(s ?? '').toLowerCase()
  if (v === 'processed') return 'PROCESSED'
  if (v === 'failed') return 'FAILED'
  return 'SENT'
}

function refundAnswer(r: Answer): RefundAnswer {
  if (r.kind === 'unclear') return { status: 'UNCLEAR', message: r.reason }
  if (!r.ok) {
    // Already given back (our own earlier call went through before a crash): the money is back.
    if (/fully reversed|already.*refund/i.test(r.message)) return { status: 'PROCESSED', message: r.message }
    return { status: 'FAILED', message: r.message || 'Refund refused by Paystack' }
  }
  const d: any = r.data
  return { status: refundStatus(d.status), extRefundId: d.id != null ? String(d.id) : null, message: r.message || 'Refund has been queued for processing' }
}

export interface PaystackEvent {
  /** Unique per event: Paystack sends no event id, so the type with the object's own id (or a hash of the body). */
  key: string
  event: string
  reference: string | null
  data: any
}

/** Reads any signed Paystack event (null when it is not an event at all). */
export function parsePaystackEvent(body: any, rawBody?: Buffer): PaystackEvent | null {
  if (!body || typeof body !== 'object' || typeof body.event !== 'string' || !body.event || body.event.length > 100) return null
  const data = body.data && typeof body.data === 'object' ? body.data : {}
  const refCandidate = data.transaction_reference ?? data.transaction?.reference ?? data.reference
  const reference = typeof refCandidate === 'string' && refCandidate.length <= 100 && refCandidate ? refCandidate : null
  const objectId = data.id ?? null
  const key =
    objectId !== null && objectId !== undefined
      ? `${body.event}:${objectId}:${String(data.status ?? '')}`
      : `${body.event}:${crypto
          .createHash('sha256')
          .update(rawBody ?? JSON.stringify(body))
          .digest('hex')
          .slice(0, 32)}`
  return { key, event: body.event, reference, data }
}
