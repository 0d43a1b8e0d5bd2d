import { DELIVERY_LABELS } from '../../lib/vocabulary.ts'

export { DELIVERY_LABELS }

/** Buyers and agents see that a delivery failed, never the vendor's own words (balance, account issues). */
export const PUBLIC_DELIVERY_ERROR = 'Delivery failed. Our team has been alerted and will deliver it.'

/** The delivery fields every order the API returns carries. */
export function deliveryFields(o: Record<string, any>, audience: 'admin' | 'public') {
  const get = (camel: string, snake: string) => (o[camel] !== undefined ? o[camel] : o[snake])
  const status = String(get('deliveryStatus', 'delivery_status') ?? 'NOT_STARTED')
  const error = get('deliveryError', 'delivery_error') ?? null
  return {
    deliveryStatus: status,
    deliveryReference: get('deliveryReference', 'delivery_reference') ?? null,
    deliveryAttempts: Number(get('deliveryAttempts', 'delivery_attempts') ?? 0),
    deliveryError: audience === 'admin' ? error : status === 'FAILED' ? PUBLIC_DELIVERY_ERROR : null
  }
}
