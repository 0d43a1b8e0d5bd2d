import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for Arkesel's SMS API v2 (developers.arkesel.com): POST /api/v2/sms/send with
 * header `api-key` and JSON {sender, message, recipients}; answers
 * {status: 'success', data: [{recipient, id}]}, or {status: 'error', message} with 401/422/500.
 */
export interface FakeArkesel {
  url: string
  apiKey: string
  sent: { id: string; sender: string; message: string; recipient: string }[]
  failNext(n: number, status?: number): void
  close(): Promise<void>
}

export async function startFakeArkesel(apiKey = 'ark_test_key'): Promise<FakeArkesel> {
  const sent: FakeArkesel['sent'] = []
  let failing = 0
  let failStatus = 500
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.method !== 'POST' || req.url !== '/api/v2/sms/send') return send(404, { status: 'error', message: 'Not found' })
      if (req.headers['api-key'] !== apiKey) return send(401, { status: 'error', message: 'Invalid API key' })
      let body: any
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return send(422, { status: 'error', message: 'Invalid JSON' })
      }
      if (typeof body.sender !== 'string' || body.sender.length < 1 || body.sender.length > 11)
        return send(422, { status: 'error', message: 'Sender ID must be at most 11 characters' })
      if (typeof body.message !== 'string' || !body.message) return send(422, { status: 'error', message: 'Message is required' })
      if (!Array.isArray(body.recipients) || body.recipients.length === 0) return send(422, { status: 'error', message: 'Recipients are required' })
      if (failing > 0) {
        failing--
        return send(failStatus, { status: 'error', message: failStatus >= 500 ? 'Internal server error' : 'Insufficient balance' })
      }
      const data: unknown[] = []
      const invalid: string[] = []
      for (const r of body.recipients as string[]) {
        if (!/^(233|0)\d{9}$/.test(String(r))) {
          invalid.push(String(r))
          continue
        }
        const id = crypto.randomUUID()
        sent.push({ id, sender: body.sender, message: body.message, recipient: String(r) })
        data.push({ recipient: String(r), id })
      }
      if (invalid.length) data.push({ 'invalid numbers': invalid })
      send(200, { status: 'success', data })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    sent,
    failNext(n, status = 500) {
      failing = n
      failStatus = status
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
