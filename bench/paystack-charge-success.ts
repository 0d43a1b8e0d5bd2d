import { createHmac } from 'node:crypto'
import http from 'node:http'

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
