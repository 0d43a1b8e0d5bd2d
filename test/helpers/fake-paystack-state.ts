import type http from 'node:http'
import type { FakeState, FakeTransfer, FakeTxn, Trouble } from './fake-paystack-types.ts'

/** What a route answers when the request is not its own: the next route is asked. */
export const NEXT = Symbol('next route')

export function newState(): FakeState {
  return {
    txns: new Map(),
    requests: [],
    refunds: [],
    otpProviders: new Set(),
    nextId: 4_000_000_000,
    trouble: null,
    transfers: new Map(),
    recipients: new Map(),
    unknownNumbers: new Set(),
    transferTrouble: null,
    verifyTrouble: null,
    refundTrouble: null,
    resolveTrouble: null,
    refuseTransfer: null,
    refundMode: 'processed',
    maxPerPage: 100
  }
}

export const transferData = (s: FakeState, t: FakeTransfer) => ({
  ...t,
  domain: 'test',
  source: 'balance',
  recipient: s.recipients.get(t.recipient) ? { recipient_code: t.recipient, type: 'mobile_money' } : t.recipient,
  createdAt: new Date().toISOString()
})

/** Answers the way a Trouble says; true when it took the answer over. */
export const misbehave = (tr: Trouble, req: http.IncomingMessage, res: http.ServerResponse, ok: () => void): boolean => {
  if (tr.kind === '429')
    return (res.writeHead(429, { 'Content-Type': 'application/json' }), res.end(JSON.stringify({ status: false, message: 'Too Many Requests' })), true)
  if (tr.kind === '502') return (res.writeHead(502, { 'Content-Type': 'text/html' }), res.end('<html><body>502 Bad Gateway</body></html>'), true)
  if (tr.kind === 'nonjson') return (res.writeHead(200, { 'Content-Type': 'text/html' }), res.end('<html>upstream error</html>'), true)
  if (tr.kind === 'reset') return (req.socket.destroy(), true)
  if (tr.kind === 'silence') return (setTimeout(() => req.socket.destroy(), tr.ms ?? 20_000).unref(), true)
  if (tr.kind === 'slow') return (setTimeout(ok, tr.ms ?? 20_000).unref(), true)
  return false
}
export const dataOf = (t: FakeTxn) => ({
  id: t.id,
  domain: 'test',
  status: t.status,
  reference: t.reference,
  amount: t.status === 'success' ? (t.paidAmount ?? t.amount) : t.amount,
  ...(t.status === 'success' && t.paidCurrency !== undefined ? (t.paidCurrency === null ? {} : { currency: t.paidCurrency }) : { currency: t.currency }),
  channel: t.channel,
  gateway_response: t.status === 'success' ? 'Approved' : t.status === 'failed' ? 'Declined' : 'The transaction was not completed',
  display_text:
    t.status === 'pay_offline'
      ? 'Please complete authorization process on your mobile phone'
      : t.status === 'send_otp'
        ? 'Please dial *110# to generate a voucher code. Then input the voucher'
        : undefined,
  created_at: t.createdAt.toISOString(),
  paid_at: t.status === 'success' ? new Date().toISOString() : null,
  customer: { email: t.email }
})
