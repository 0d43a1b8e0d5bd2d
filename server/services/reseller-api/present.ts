import { toGhs } from '../../lib/money.ts'
import type { ApiOrderRow } from './queries-orders.ts'

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

export function presentApiOrder(o: ApiOrderRow): ApiOrder {
  return {
    id: o.id,
    network: o.network,
    dataSizeMB: o.dataSizeMb,
    packageId: o.packageId,
    recipientNumber: o.recipientNumber,
    amount: toGhs(o.amountPesewas) ?? 0,
    paymentStatus: String(o.paymentStatus).toUpperCase(),
    // A row read before delivery had its own status has only the delivered flag to go by.
    deliveryStatus: o.deliveryStatus ? String(o.deliveryStatus).toUpperCase() : o.delivered ? 'DELIVERED' : 'PENDING',
    delivered: o.delivered,
    transactionId: o.paymentTransactionId,
    channel: o.channel,
    createdAt: new Date(o.createdAt).toISOString(),
    updatedAt: new Date(o.updatedAt).toISOString()
  }
}
