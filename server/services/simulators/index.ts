import type { Env } from '../../env.ts'
import { createVendors } from '../delivery/vendors/index.ts'

/**
 * The outside providers this instance stands in for with a simulator, and where a person plays
 * each: the start-up log lists them so a fresh machine says how to sell end to end.
 */
export function simulatorsInUse(env: Env): string[] {
  // The same choices payments, payouts and SMS make (payments/index.ts, payouts/index.ts, sms/index.ts).
  const paystack = Boolean(env.PAYSTACK_SECRET_KEY) && env.PAYMENT_PROVIDER !== 'simulator'
  const sms = env.SMS_PROVIDER ?? (env.ARKESEL_API_KEY ? 'arkesel' : 'log')
  const simulated = [
    !paystack && 'payments (approve at /simulator/phone)',
    !createVendors(env).configured().includes('skytech') && 'data delivery (/admin/delivery-simulator)',
    sms === 'log' && 'SMS (read them at /admin/sms)',
    !paystack && 'payouts to agents'
  ]
  return simulated.filter((s): s is string => typeof s === 'string')
}
