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
    updatedAt: new Date(get('updatedAt', 'updated_at')).toISOString(),
  }
}
