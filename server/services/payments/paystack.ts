import axios, { type AxiosInstance } from 'axios'
import crypto from 'node:crypto'
import type { Env } from '../../env.ts'
import { GatewayError, type CardStart, type GatewayResult, type MomoStart, type PaymentProvider, type PaymentRow, type PaymentStatus, type StartResult } from './provider.ts'

/** Paystack's transaction/charge status words mapped onto ours. */
export function mapPaystackStatus(status: unknown): PaymentStatus {
  switch (String(status ?? '').toLowerCase()) {
    case 'success':
      return 'SUCCESS'
    case 'failed':
    case 'reversed':
      return 'FAILED'
    case 'pay_offline':
    case 'send_otp':
    case 'send_pin':
    case 'ongoing':
    case 'processing':
      return 'IN_PROGRESS'
    // 'abandoned' (checkout opened, nothing paid yet), 'pending' and anything new stay open; the expiry job closes them.
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

function resultOf(data: PaystackData, fallbackMessage: string): GatewayResult {
  const status = mapPaystackStatus(data.status)
  return {
    status,
    message: String(data.display_text || data.gateway_response || data.message || fallbackMessage).slice(0, 300),
    extId: data.id !== undefined && data.id !== null ? String(data.id) : null,
    amountPesewas: typeof data.amount === 'number' ? data.amount : null,
    currency: data.currency ?? null,
  }
}

export function createPaystackProvider(env: Env, http?: AxiosInstance): PaymentProvider {
  const secret = env.PAYSTACK_SECRET_KEY!
  const client =
    http ??
    axios.create({
      baseURL: env.PAYSTACK_BASE_URL.replace(/\/+$/, ''),
      timeout: 15_000,
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      // Paystack answers 400 with a JSON message for declined or invalid charges: read it, do not throw.
      validateStatus: (s) => s < 500,
    })
  const providerCode = { MTN: env.PAYSTACK_MOMO_MTN, TELECEL: env.PAYSTACK_MOMO_TELECEL, AIRTELTIGO: env.PAYSTACK_MOMO_AIRTELTIGO }

  async function call(method: 'get' | 'post', url: string, body?: unknown): Promise<{ ok: boolean; message: string; data: PaystackData }> {
    try {
      const res = await client.request({ method, url, data: body })
      const payload = (res.data ?? {}) as { status?: boolean; message?: string; data?: PaystackData }
      return { ok: res.status < 400 && payload.status === true, message: String(payload.message ?? ''), data: payload.data ?? {} }
    } catch (err) {
      throw new GatewayError(`Paystack unreachable: ${(err as Error).message}`, 'Payment provider is unavailable. Please try again shortly.')
    }
  }

  return {
    name: 'paystack',
    label: 'Paystack',
    minCheckIntervalMs: (method) => (method === 'momo' ? 10_000 : 0),
    async startCard(p: CardStart): Promise<StartResult> {
      const r = await call('post', '/transaction/initialize', {
        email: p.email,
        amount: p.amountPesewas,
        currency: 'GHS',
        reference: p.reference,
        ...(p.callbackUrl ? { callback_url: p.callbackUrl } : {}),
      })
      if (!r.ok || !r.data.authorization_url) return { status: 'FAILED', message: r.message || 'Paystack authorization URL not received', authorizationUrl: null }
      return { status: 'PENDING', message: 'Redirecting to Paystack...', authorizationUrl: r.data.authorization_url, extId: null }
    },
    async startMomo(p: MomoStart): Promise<StartResult> {
      const r = await call('post', '/charge', {
        email: p.email,
        amount: p.amountPesewas,
        currency: 'GHS',
        reference: p.reference,
        mobile_money: { phone: p.phone, provider: providerCode[p.network] },
      })
      if (!r.ok && !r.data.status) return { status: 'FAILED', message: r.message || 'Payment request failed' }
      const res = resultOf(r.data, r.message || 'USSD prompt sent! Check your phone and complete payment.')
      // A charge is never trusted as paid at start: only a verify or a signed webhook settles it.
      if (res.status === 'SUCCESS') return { ...res, status: 'IN_PROGRESS' }
      return res
    },
    async check(p: PaymentRow): Promise<GatewayResult> {
      const ref = encodeURIComponent(p.transaction_id)
      const r = await call('get', p.method === 'momo' ? `/charge/${ref}` : `/transaction/verify/${ref}`)
      if (!r.ok && !r.data.status) {
        // Unknown reference or a refused check: nothing is known yet, so the payment stays open.
        return { status: 'PENDING', message: r.message || 'Payment still pending' }
      }
      return resultOf(r.data, r.message)
    },
  }
}

/** Reads a Paystack webhook event; null for events that do not concern a payment's outcome. */
export function parsePaystackEvent(body: any): { reference: string; result: GatewayResult } | null {
  if (!body || typeof body !== 'object' || typeof body.event !== 'string' || !body.data || typeof body.data !== 'object') return null
  const reference = body.data.reference
  if (typeof reference !== 'string' || !reference || reference.length > 100) return null
  if (body.event === 'charge.success') return { reference, result: resultOf(body.data, 'Payment successful') }
  return null
}
