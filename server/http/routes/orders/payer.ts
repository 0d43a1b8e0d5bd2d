import type { Request } from 'express'
import { publicOrigin } from '../../../lib/origin.ts'

/** Where a card checkout brings the payer back: this site's /payment-callback. */
export function callbackUrlOf(req: Request, env: { PUBLIC_URL?: string }): string {
  return `${publicOrigin(env.PUBLIC_URL, { protocol: req.protocol, host: req.get('host') })}/payment-callback`
}

/** The payer fields as the spec's client names them (phone_number, network) or as ours does. */
export function payerOf(body: Record<string, any>) {
  return {
    payerPhone: body.payerPhone ?? body.phone_number ?? null,
    payerNetwork: body.payerNetwork ?? (body.phone_number !== undefined ? body.network : null) ?? null,
    email: body.email ?? null
  }
}
