import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for the SkyTech GH reseller API v1 (ADR 0012), speaking what the peers send:
 * Bearer key, X-Timestamp and X-Signature = HMAC-SHA256(secret, ts\nMETHOD\npath\nbody) on every call;
 * POST /api/v1/orders {network, recipient, capacity, idempotency_key} -> {status: 'success', ref, price};
 * GET /api/v1/orders/:ref -> {ref, status: processing|completed|failed, ...}; GET /api/v1/balance -> {balance}.
 * Like the vendor it keys orders on idempotency_key, and it counts every call per key, so a test can
 * prove each order was delivered once.
 */
export interface FakeVendorOrder {
  ref: string
  key: string
  network: string
  recipient: string
  capacity: number
  status: 'processing' | 'completed' | 'failed'
  createdAt: number
}

export interface FakeSkytech {
  url: string
  key: string
  secret: string
  orders: Map<string, FakeVendorOrder>
  /** POST /api/v1/orders calls per idempotency key (repeats included). */
  callsPerKey: Map<string, number>
  /** What the next POSTs do: answer 500, hang past the client's timeout, or behave. */
  failNext(n: number, mode?: '500' | 'hang'): void
  /** Milliseconds each POST takes before answering. */
  delayMs: number
  /** Orders complete on their own this long after creation (0: at once); null: only by complete(). */
  completeAfterMs: number | null
  balance: number
  complete(ref: string, status?: 'completed' | 'failed'): void
  /** Forgets every order, key and count (between tests). */
  reset(): void
  requests: { method: string; path: string; signatureOk: boolean }[]
  close(): Promise<void>
}

export async function startFakeSkytech(opts: { key?: string; secret?: string } = {}): Promise<FakeSkytech> {
  const key = opts.key ?? 'sky_test_key'
  const secret = opts.secret ?? 'tok_test_secret'
  const orders = new Map<string, FakeVendorOrder>()
  const byKey = new Map<string, FakeVendorOrder>()
  const callsPerKey = new Map<string, number>()
  const requests: FakeSkytech['requests'] = []
  let failing = 0
  let failMode: '500' | 'hang' = '500'
  let seq = 0
  const hanging = new Set<http.ServerResponse>()

  const statusOf = (o: FakeVendorOrder) => {
    if (o.status === 'processing' && fake.completeAfterMs !== null && Date.now() - o.createdAt >= fake.completeAfterMs) o.status = 'completed'
    return o.status
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://x')
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      const ts = String(req.headers['x-timestamp'] ?? '')
      const expected = crypto.createHmac('sha256', secret).update(`${ts}\n${req.method}\n${url.pathname}\n${raw}`).digest('hex')
      const given = String(req.headers['x-signature'] ?? '')
      const signatureOk =
        given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected)) && req.headers.authorization === `Bearer ${key}`
      requests.push({ method: req.method ?? '', path: url.pathname, signatureOk })
      if (!signatureOk) return send(401, { status: 'error', error: 'Invalid signature' })
      if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return send(401, { status: 'error', error: 'Stale timestamp' })

      if (req.method === 'POST' && url.pathname === '/api/v1/orders') {
        let body: any
        try {
          body = JSON.parse(raw)
        } catch {
          return send(400, { status: 'error', error: 'Invalid JSON' })
        }
        const k = String(body.idempotency_key ?? '')
        if (!k || !body.network || !/^\d{10,12}$/.test(String(body.recipient ?? '')) || !(Number(body.capacity) > 0)) {
          return send(422, { status: 'error', error: 'network, recipient, capacity and idempotency_key are required' })
        }
        callsPerKey.set(k, (callsPerKey.get(k) ?? 0) + 1)
        if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs))
        if (failing > 0) {
          failing--
          if (failMode === 'hang') return void hanging.add(res)
          return send(500, { status: 'error', error: 'Upstream network error' })
        }
        const seen = byKey.get(k)
        if (seen) return send(200, { status: 'success', ref: seen.ref, duplicate: true })
        const order: FakeVendorOrder = {
          ref: `SKY${String(++seq).padStart(6, '0')}`,
          key: k,
          network: body.network,
          recipient: String(body.recipient),
          capacity: Number(body.capacity),
          status: 'processing',
          createdAt: Date.now()
        }
        orders.set(order.ref, order)
        byKey.set(k, order)
        fake.balance -= 5
        return send(200, { status: 'success', ref: order.ref, price: 5 })
      }
      const m = /^\/api\/v1\/orders\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && m) {
        const o = orders.get(decodeURIComponent(m[1]!))
        if (!o) return send(404, { status: 'error', error: 'Order not found' })
        return send(200, { ref: o.ref, status: statusOf(o), network: o.network, recipient: o.recipient, capacity: o.capacity })
      }
      if (req.method === 'GET' && url.pathname === '/api/v1/balance') return send(200, { balance: fake.balance })
      send(404, { status: 'error', error: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const fake: FakeSkytech = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    secret,
    orders,
    callsPerKey,
    requests,
    delayMs: 0,
    completeAfterMs: 0,
    balance: 500,
    failNext(n, mode = '500') {
      failing = n
      failMode = mode
    },
    complete(ref, status = 'completed') {
      const o = orders.get(ref)
      if (o) o.status = status
    },
    reset() {
      orders.clear()
      byKey.clear()
      callsPerKey.clear()
      requests.length = 0
      failing = 0
      fake.delayMs = 0
      fake.completeAfterMs = 0
    },
    async close() {
      for (const r of hanging) r.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
  return fake
}
