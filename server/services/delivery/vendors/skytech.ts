import axios, { type AxiosInstance } from 'axios'
import { createHmac } from 'node:crypto'
import { VendorError, type DeliveryOrder, type DeliveryVendor, type SendResult, type StatusResult } from '../vendor.ts'

export interface SkytechConfig {
  baseUrl: string
  apiKey: string
  apiSecret: string
  timeoutMs: number
}

/** Our networks as SkyTech names them (AirtelTigo's iShare bundles are plain AIRTELTIGO here). */
const NETWORK: Record<string, string> = { MTN: 'MTN', TELECEL: 'TELECEL', AIRTELTIGO: 'AIRTELTIGO' }

/** SkyTech order states, as the peers map them (ADR 0012). */
const DELIVERED = new Set(['completed', 'delivered', 'success', 'successful'])
const FAILED = new Set(['failed', 'error', 'cancelled', 'refunded', 'rejected'])

/**
 * Signature SkyTech checks on every call: HMAC-SHA256 (hex) with the API secret over
 * `timestamp \n METHOD \n path \n body`, sent as X-Signature with X-Timestamp (unix seconds) and
 * `Authorization: Bearer <key>`.
 */
export function skytechSignature(secret: string, ts: string, method: string, path: string, body: string): string {
  return createHmac('sha256', secret).update(`${ts}\n${method}\n${path}\n${body}`).digest('hex')
}

/** Bundle size in GB as SkyTech's `capacity` wants it (whole GB; 500 MB is 0.5). */
export const capacityOf = (mb: number) => (mb % 1024 === 0 ? mb / 1024 : Math.round((mb / 1024) * 100) / 100)

/**
 * SkyTech GH (skytechgh.com) reseller API v1, as Ghanaian reseller shops call it:
 * POST /api/v1/orders {network, recipient, capacity, idempotency_key} -> {status: success|queued, ref},
 * GET /api/v1/orders/:ref -> {status}, GET /api/v1/balance -> {balance}. The vendor keys orders on
 * idempotency_key, so a retry with the same key returns the first order instead of a second bundle.
 */
export function createSkytechVendor(cfg: SkytechConfig): DeliveryVendor {
  const http: AxiosInstance = axios.create({ baseURL: cfg.baseUrl, timeout: cfg.timeoutMs, validateStatus: () => true, transformResponse: (d) => d })

  async function call(method: 'GET' | 'POST', path: string, payload?: object): Promise<{ status: number; data: any }> {
    const body = payload ? JSON.stringify(payload) : ''
    const ts = Math.floor(Date.now() / 1000).toString()
    try {
      const res = await http.request({
        method,
        url: path,
        data: payload ? body : undefined,
        headers: {
          Authorization: `Bearer ${cfg.apiKey}`,
          'X-Timestamp': ts,
          'X-Signature': skytechSignature(cfg.apiSecret, ts, method, path, body),
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {})
        }
      })
      let data: any = {}
      try {
        data = res.data ? JSON.parse(res.data) : {}
      } catch {
        data = { error: `Invalid answer from SkyTech (HTTP ${res.status})` }
      }
      return { status: res.status, data }
    } catch (err) {
      const e = err as { code?: string; message: string }
      const timedOut = e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT'
      throw new VendorError(timedOut ? 'SkyTech did not answer in time' : `SkyTech unreachable: ${e.message}`, true)
    }
  }

  const reason = (r: { status: number; data: any }) => String(r.data?.error ?? r.data?.message ?? `HTTP ${r.status}`).slice(0, 300)

  return {
    name: 'skytech',
    async send(order: DeliveryOrder, idempotencyKey: string): Promise<SendResult> {
      const network = NETWORK[order.network]
      if (!network) throw new VendorError(`SkyTech does not sell ${order.network} bundles`, false)
      const r = await call('POST', '/api/v1/orders', {
        network,
        recipient: order.recipientNumber,
        capacity: capacityOf(order.dataSizeMb),
        idempotency_key: idempotencyKey
      })
      const st = String(r.data?.status ?? '').toLowerCase()
      if (r.status >= 200 && r.status < 300 && r.data?.ref) {
        // On create, 'success'/'queued' mean accepted (the peers store the ref and wait); only a finished state is delivery.
        if (st === 'completed' || st === 'delivered') return { status: 'DELIVERED', reference: String(r.data.ref) }
        if (st === 'success' || st === 'queued' || st === 'pending' || st === 'processing')
          return { status: 'PENDING', reference: String(r.data.ref), message: st }
      }
      // 5xx, 429 and 408 pass; any other refusal (bad number, no balance, unknown bundle) is final.
      const retryable = r.status >= 500 || r.status === 429 || r.status === 408
      throw new VendorError(`SkyTech: ${reason(r)}`, retryable)
    },
    async status(reference: string): Promise<StatusResult> {
      const r = await call('GET', `/api/v1/orders/${encodeURIComponent(reference)}`)
      if (r.status === 404) return { status: 'FAILED', message: 'SkyTech does not know this order' }
      if (r.status >= 300) throw new VendorError(`SkyTech: ${reason(r)}`, true)
      const st = String(r.data?.status ?? r.data?.order?.status ?? '').toLowerCase()
      if (DELIVERED.has(st)) return { status: 'DELIVERED' }
      if (FAILED.has(st)) return { status: 'FAILED', message: String(r.data?.message ?? r.data?.error ?? `SkyTech: ${st}`) }
      return { status: 'PENDING', message: st }
    },
    async balance() {
      const r = await call('GET', '/api/v1/balance')
      if (r.status >= 300) throw new VendorError(`SkyTech: ${reason(r)}`, true)
      const n = Number(r.data?.balance)
      return Number.isFinite(n) ? n : null
    }
  }
}
