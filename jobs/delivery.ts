import type { JobDeps } from './types.ts'

/**
 * Every minute: confirms deliveries a vendor accepted but has not confirmed, puts back on the queue
 * deliveries whose worker died, and dispatches SMS rows nobody queued (whatever wrote them).
 */
export async function deliverySync({ services }: JobDeps) {
  const delivery = await services.delivery.sync()
  const sms = await services.sms.sweep()
  return { ...delivery, sms }
}
