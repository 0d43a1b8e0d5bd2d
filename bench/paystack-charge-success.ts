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
 * `chargeSuccessPoster` in a child process (bench/paystack-poster-child.ts): `postAll` posts every reference, `atOnce`
 * at a time, and answers when each POST started (epoch ms, as `performance.timeOrigin + performance.now()`) and the
 * child's own CPU: the gateway's side of the webhook, kept out of the app's process and its CPU figure.
 */
export async function chargeSuccessClient(o: { port: number; secretKey: string; atOnce: number }) {
  const child = fork(fileURLToPath(new URL('./paystack-poster-child.ts', import.meta.url)), [], { stdio: 'inherit' })
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`poster said ${String(m)}`))))
    child.once('exit', (code) => reject(new Error(`poster exited (${code}) before it was ready`)))
  })
  return {
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
