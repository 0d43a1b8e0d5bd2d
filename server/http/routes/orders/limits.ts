import type { Request, RequestHandler } from 'express'
import { normalizePhone } from '../../../lib/phone.ts'
import type { Services } from '../../../services/index.ts'

const phoneKey = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? normalizePhone(String(v)) || null : null)
const bodyOf = (req: Request) => (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>

/**
 * Each order can send a payment prompt to someone's phone, and the lookup answers for any number, so
 * neither may be used in bulk: generous per address (carrier NAT), tight per phone and account.
 */
export function takeOrderLimit(services: Services, req: Request): Promise<void> {
  const body = bodyOf(req)
  // A signed-in buyer (an agent pays from one phone for many customers) is limited per account; a
  // visitor per phone that the prompt rings (or the recipient when no payer is given yet).
  const phone = req.user ? null : (phoneKey(body.payerPhone ?? body.phone_number) ?? phoneKey(body.recipientNumber))
  return services.limits.take({ orderPerIp: req.ip ?? 'unknown', orderPerPhone: phone, orderPerAccount: req.user?.id ?? null })
}

export function orderLimit(services: Services): RequestHandler {
  return async (req, _res, next) => {
    await takeOrderLimit(services, req)
    next()
  }
}

/**
 * Places an order while its limit is taken: `place` gets the limit's promise and awaits it before it
 * writes anything (orders wait for it beside their package read: two connections, one round trip for
 * both). A refused limit answers 429 whatever else the order ran into meanwhile.
 */
export async function underOrderLimit<T>(services: Services, req: Request, place: (admitted: Promise<void>) => Promise<T>): Promise<T> {
  const admitted = takeOrderLimit(services, req)
  // Awaited by `place` or below; this only keeps a refusal that `place` never reached from going unhandled.
  admitted.catch(() => {})
  try {
    return await place(admitted)
  } catch (err) {
    await admitted
    throw err
  }
}

export function lookupLimit(services: Services): RequestHandler {
  return async (req, _res, next) => {
    await services.limits.take({ lookupPerIp: req.ip ?? 'unknown', lookupPerPhone: phoneKey(req.query.phoneNumber) })
    next()
  }
}
