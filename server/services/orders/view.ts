import { toGhs } from '../../lib/money.ts'
import { deliveryFields } from '../delivery/present.ts'

/** The API's view of an order (the spec's field names), from a model's camelCase row or a query's snake_case one. */
export interface OrderView {
  id: number
  recipientNumber: string
  network: string
  dataSizeMB: number
  amount: number | null
  paymentStatus: string
  paymentTransactionId: string | null
  paymentPhoneNumber: string | null
  packageName: string | null
  delivered: boolean
  deliveryStatus: string
  deliveryReference: string | null
  deliveryAttempts: number
  deliveryError: string | null
  channel: string
  createdAt: string
  updatedAt: string
}

export function presentOrder(o: any): OrderView {
  const get = (camel: string, snake: string) => (o[camel] !== undefined ? o[camel] : o[snake])
  return {
    id: o.id,
    recipientNumber: get('recipientNumber', 'recipient_number'),
    network: o.network,
    dataSizeMB: get('dataSizeMb', 'data_size_mb'),
    amount: toGhs(get('amountPesewas', 'amount_pesewas')),
    paymentStatus: String(get('paymentStatus', 'payment_status')).toUpperCase(),
    paymentTransactionId: get('paymentTransactionId', 'payment_transaction_id') ?? null,
    paymentPhoneNumber: get('paymentPhoneNumber', 'payment_phone_number') ?? null,
    packageName: get('packageName', 'package_name') ?? null,
    delivered: !!o.delivered,
    ...deliveryFields(o, 'public'),
    channel: o.channel,
    createdAt: new Date(get('createdAt', 'created_at')).toISOString(),
    updatedAt: new Date(get('updatedAt', 'updated_at')).toISOString()
  }
}

/** '0241234567' -> '*******567': enough for the payer to recognise it, too little for anyone else to use it. */
export const maskTail = (v: string | null, shown = 3): string | null => (v ? `${'*'.repeat(Math.max(0, v.length - shown))}${v.slice(-shown)}` : v)

/**
 * The public lookup answers anyone who types a recipient's number: the paying phone and the
 * transaction id (which opens the payment's status) stay whole only for the browser that started the
 * payment or the signed-in buyer who placed the order.
 */
export function forLookup(view: OrderView, userId: number | null, seenBy: { owns(tid: string): boolean; userId: number | null }): OrderView {
  const tid = view.paymentTransactionId
  if ((tid && seenBy.owns(tid)) || (userId && userId === seenBy.userId)) return view
  return { ...view, paymentPhoneNumber: maskTail(view.paymentPhoneNumber), paymentTransactionId: maskTail(tid) }
}
