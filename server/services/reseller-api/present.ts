import { toGhs } from '../../lib/money.ts'

/** An order as the reseller API and its webhooks speak it. */
export interface ApiOrder {
  id: number
  network: string
  dataSizeMB: number
  packageId: number | null
  recipientNumber: string
  amount: number
  paymentStatus: string
  deliveryStatus: string
  delivered: boolean
  transactionId: string | null
  channel: string
  createdAt: string
  updatedAt: string
}

export function presentApiOrder(o: Record<string, any>): ApiOrder {
  return {
    id: o.id,
    network: o.network,
    dataSizeMB: o.data_size_mb,
    packageId: o.package_id ?? null,
    recipientNumber: o.recipient_number,
    amount: toGhs(o.amount_pesewas) ?? 0,
    paymentStatus: String(o.payment_status).toUpperCase(),
    // A row read before delivery had its own status has only the delivered flag to go by.
    deliveryStatus: o.delivery_status ? String(o.delivery_status).toUpperCase() : o.delivered ? 'DELIVERED' : 'PENDING',
    delivered: !!o.delivered,
    transactionId: o.payment_transaction_id ?? null,
    channel: o.channel,
    createdAt: new Date(o.created_at).toISOString(),
    updatedAt: new Date(o.updated_at).toISOString()
  }
}
