// The CPU per call of an order's edge checks and row mapping, in this process, warm: an API order's body checked
// (checkOrder with the API schema), a visitor's (the default schema), an order row's columns camelCased (camelKeys,
// the columns of an order), and an Idempotency-Key through its Joi schema against the pattern alone. CPU time
// (process.cpuUsage), not wall time, so the figure moves little with the machine's load; run it in two checkouts
// to compare them. Prints figures; asserts nothing.
//   node bench/order-edge-cpu.ts   (EDGE_CALLS: 50000 calls per figure, EDGE_REPEATS: 5, the median printed)
import { valid } from '../server/http/validate.ts'
import { IDEMPOTENCY_KEY, idempotencyHeader } from '../server/http/routes/api-v1/schema.ts'
import { apiOrderSchema, checkOrder } from '../server/services/orders/input.ts'
import { camelKeys } from '../server/services/orders/queries.ts'

const calls = Number(process.env.EDGE_CALLS ?? 50_000)
const repeats = Number(process.env.EDGE_REPEATS ?? 5)
const ORDER_COLUMNS =
  'id user_id agent_id shop_id shop_agent_id shop_price_pesewas shop_agent_price_pesewas shop_margin_pesewas package_id package_name recipient_number network data_size_mb amount_pesewas status payment_status delivery_status channel reference vendor_reference failure_reason settings_version batch_id price_rule_id created_at updated_at delivered_at'
const row = Object.fromEntries(ORDER_COLUMNS.split(' ').map((c, i) => [c, i]))
const key = '3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b'
const cases: [string, () => unknown][] = [
  ['checkOrder, an API order', () => checkOrder({ packageId: 3, recipientNumber: '0241234567' }, apiOrderSchema)],
  ['checkOrder, a visitor order', () => checkOrder({ packageId: 3, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })],
  [`camelKeys, an order row (${Object.keys(row).length} columns)`, () => camelKeys(row)],
  ['Idempotency-Key through its Joi schema', () => valid(idempotencyHeader, { key })],
  ['Idempotency-Key by its pattern', () => IDEMPOTENCY_KEY.test(key)]
]
console.log(`order edge checks, CPU per call (median of ${repeats} x ${calls} calls), node ${process.version}`)
for (const [name, f] of cases) {
  for (let i = 0; i < calls; i++) f()
  const us: number[] = []
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage()
    for (let i = 0; i < calls; i++) f()
    const c = process.cpuUsage(c0)
    us.push((c.user + c.system) / calls)
  }
  console.log(
    `${name.padEnd(48)} ${us
      .sort((a, b) => a - b)
      [Math.floor(repeats / 2)]!.toFixed(2)
      .padStart(7)} us`
  )
}
