import type { JobDeps } from './types.ts'

/** Yesterday (UTC) against the gateway's own list; results on the admin's attention page (issue 12 item 8). */
export async function reconcileYesterday({ services }: JobDeps, now = new Date()) {
  return services.payments.reconcileDay(new Date(now.getTime() - 86_400_000))
}
