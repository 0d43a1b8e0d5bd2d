import { fork } from 'node:child_process'
import { createHmac } from 'node:crypto'
import http from 'node:http'
import { fileURLToPath } from 'node:url'

/**
 * Posts a payment's `charge.success` to the app's Paystack webhook as Paystack sends it: the raw body signed with the
 * secret key (HMAC-SHA512, hex), over keep-alive connections, `atOnce` at most. Resolves on a 200, rejects otherwise.
 */
export function chargeSuccessPoster(o: { port: number; secretKey: string; atOnce: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.atOnce })
  let chargeIds = 0
  return (reference: string, round: number) => {
    const body = JSON.stringify({
      event: 'charge.success',
      data: {
        id: round * 1_000_000 + ++chargeIds,
        reference,
        status: 'success',
        amount: 500,
        currency: 'GHS',
        gateway_response: 'Approved',
        channel: 'mobile_money'
      }
    })
    const signature = createHmac('sha512', o.secretKey).update(body).digest('hex')
    return new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: o.port,
          path: '/api/webhooks/paystack',
          method: 'POST',
          agent,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'x-paystack-signature': signature }
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`))
          )
        }
      )
      req.on('error', reject)
      req.end(body)
    })
  }
}

/**
 * Paystack's API as the app calls it from the bench (`PAYSTACK_BASE_URL`), on 127.0.0.1: `GET /transaction/verify/:ref`
 * answers a reference this gateway posted as a success of 500 pesewas (what its `charge.success` said) and any other
 * as Paystack does a reference it never saw (400, `status: false`: the app keeps the payment pending); `GET
 * /transaction` (the reconcile jobs' list) is empty. Anything else is a 404 in Paystack's envelope.
 */
export async function paystackApiFake() {
  const paid = new Set<string>()
  const ids = new Map<string, number>()
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
    res.end(text)
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(url.pathname)
    if (req.method === 'GET' && verify) {
      const reference = decodeURIComponent(verify[1]!)
      if (!paid.has(reference)) return answer(res, 400, { status: false, message: 'Transaction reference not found' })
      let id = ids.get(reference)
      if (id === undefined) ids.set(reference, (id = 9_000_000 + ids.size))
      return answer(res, 200, {
        status: true,
        message: 'Verification successful',
        data: { id, reference, status: 'success', amount: 500, currency: 'GHS', gateway_response: 'Approved', channel: 'mobile_money' }
      })
    }
    if (req.method === 'GET' && url.pathname === '/transaction')
      return answer(res, 200, { status: true, message: 'Transactions retrieved', data: [], meta: { total: 0, page: 1, pageCount: 1 } })
    answer(res, 404, { status: false, message: 'Not found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, paid, close: () => server.close() }
}

/**
 * `chargeSuccessPoster` in a child process (bench/paystack-poster-child.ts): `postAll` posts every reference, `atOnce`
 * at a time, and answers when each POST started (epoch ms, as `performance.timeOrigin + performance.now()`) and the
 * child's own CPU: the gateway's side of the webhook, kept out of the app's process and its CPU figure.
 */
export async function chargeSuccessClient(o: { port: number; secretKey: string; atOnce: number }) {
  const child = fork(fileURLToPath(new URL('./paystack-poster-child.ts', import.meta.url)), [], { stdio: 'inherit' })
  const apiUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { ready?: boolean; apiUrl?: string }) => (m?.ready ? resolve(m.apiUrl!) : reject(new Error(`poster said ${String(m)}`))))
    child.once('exit', (code) => reject(new Error(`poster exited (${code}) before it was ready`)))
  })
  return {
    /** The child's `paystackApiFake`: the app's `PAYSTACK_BASE_URL`. */
    apiUrl,
    postAll(references: string[], round: number): Promise<{ sentAt: number[]; cpuMs: number }> {
      return new Promise((resolve, reject) => {
        child.once('message', (m: { sentAt?: number[]; cpuMs?: number; error?: string }) =>
          m.error ? reject(new Error(m.error)) : resolve({ sentAt: m.sentAt!, cpuMs: m.cpuMs! })
        )
        child.send({ ...o, references, round })
      })
    },
    stop: () => child.send('stop')
  }
}
