import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import { GATEWAY_CARD, type Settings } from '../settings/index.ts'
import { createPaystackProvider } from './paystack.ts'
import type { Method, PaymentProvider } from './provider.ts'
import { createPaymentQueries } from './queries.ts'
import { createSimulatorProvider } from './simulator.ts'

/** PAYMENT_PROVIDER=simulator forces the simulator; else PAYSTACK_SECRET_KEY set -> Paystack; otherwise the built-in simulator. */
export function chooseProvider(env: Env, sequelize?: Sequelize): PaymentProvider {
  if (env.PAYSTACK_SECRET_KEY && env.PAYMENT_PROVIDER !== 'simulator') return createPaystackProvider(env)
  const queries = sequelize ? createPaymentQueries(sequelize) : null
  const phoneOf = async (reference: string) => (queries ? queries.payerPhonesOf(reference) : [])
  const list = async (from: Date, to: Date) => (queries ? (await queries.simulatedBetween(from, to)).map((p) => ({ ...p, currency: 'GHS' })) : [])
  return createSimulatorProvider(env, phoneOf, list)
}

/** The flow settings.paymentGateway picks for a request that does not force one. */
export const methodOf = (s: Pick<Settings, 'paymentGateway'>): Method => (s.paymentGateway === GATEWAY_CARD ? 'card' : 'momo')

/** The visitor's stand-in e-mail domain for Paystack: PAYER_EMAIL_DOMAIN, else the shop's host when it is a domain name. */
export function payerEmailDomain(env: Env): string {
  if (env.PAYER_EMAIL_DOMAIN) return env.PAYER_EMAIL_DOMAIN
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : ''
  return /^([a-z0-9-]+\.)+[a-z]{2,63}$/i.test(host) ? host : 'customers.datahub.invalid'
}
