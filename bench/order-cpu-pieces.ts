// The app's own CPU for the pieces of a visitor's order that ADR 0057 changed, in-process, before and after side by
// side (rounds alternate, median of the rounds): the order's joi check as it was run (preferences on the root and per
// call) and as it is, the payment request's schema pass the order's path no longer makes, and a new session's id
// by express-session's default (uid-safe; a buffered version was tried and dropped, ADR 0057). Microseconds per call; prints figures, asserts nothing.
//   BENCH_ROUNDS (7), BENCH_CALLS (20000 per piece and round)
import { createRequire } from 'node:module'
import os from 'node:os'
import { checkOrder, orderSchema } from '../server/services/orders/input.ts'
import { requestSchema } from '../server/services/payments/request.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 7)
const calls = Number(process.env.BENCH_CALLS ?? 20000)
const uid = createRequire(import.meta.url)('uid-safe') as { sync: (n: number) => string }

// What the web route hands the orders service, and the payment request the order's path built from it.
const order = {
  packageId: 3,
  recipientNumber: '0241234567',
  payerPhone: '0241234567',
  payerNetwork: 'MTN',
  email: null,
  price: undefined,
  channel: 'web',
  callbackUrl: 'https://datahub.example/payment-callback'
}
const payment = {
  purpose: 'data',
  amountPesewas: 450,
  transactionId: '123456789012345',
  payerPhone: '0241234567',
  payerNetwork: 'MTN',
  email: null,
  userId: null,
  method: 'momo',
  callbackUrl: order.callbackUrl,
  background: false,
  voucher: null,
  orderMarked: true
}
const asBefore = orderSchema.options({ stripUnknown: true })

const pieces: Record<string, () => unknown> = {
  "order check, as before (root's stripUnknown, abortEarly per call)": () => asBefore.validate(order, { abortEarly: false }),
  'order check, now (checkOrder)': () => checkOrder(order),
  "payment request schema pass (no longer on the order's path)": () => requestSchema.validate(payment),
  "session id, express-session's default (uid-safe sync, 24 bytes)": () => uid.sync(24)
}
const us: Record<string, number[]> = {}
for (let r = 0; r < rounds; r++)
  for (const [name, fn] of Object.entries(pieces)) {
    for (let i = 0; i < 1000; i++) fn()
    const t = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) fn()
    ;(us[name] ??= []).push(Number(process.hrtime.bigint() - t) / calls / 1000)
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(
  `order CPU pieces, ${rounds} rounds of ${calls} calls, node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`
)
for (const [name, xs] of Object.entries(us))
  console.log(`${name.padEnd(70)} median ${median(xs).toFixed(1).padStart(6)} us   (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`)
