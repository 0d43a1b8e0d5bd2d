import { connect } from '../../models/db.ts'
import type { Env } from '../../server/env.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { startFakePaystack, type FakePaystack } from './fake-paystack.ts'
import { Client } from './http.ts'
import { app, resetDb, testEnv } from './server.ts'

/**
 * Another app instance on the test database, with its own settings (providers pointed at local fakes);
 * with `logFile`, its log at trace level goes there for the test to read; with `now`, the clock its kept
 * page data ages by (a test moves it instead of waiting).
 */
export async function bootInstance(env: Partial<Env> = {}, logFile?: string, now?: () => number): Promise<Running> {
  const url = app().db.url
  const { sequelize, models } = connect(url, undefined, { poolMax: env.DB_POOL_MAX })
  return boot({
    env: { ...testEnv(), PORT: 0, ...env },
    log: logFile ? createLogger('trace', logFile) : createLogger('silent'),
    db: { sequelize, models, url, close: async () => sequelize.close() },
    now
  })
}

/** An instance whose payments go to the fake Paystack server. */
export const bootOnPaystack = (fake: FakePaystack, env: Partial<Env> = {}) =>
  bootInstance({ PAYSTACK_SECRET_KEY: fake.secret, PAYSTACK_BASE_URL: fake.url, ...env })

/**
 * For a describe block: an instance on a fresh fake Paystack for the whole block, and before each
 * test an empty database and a fake that remembers nothing and misbehaves no more.
 */
export function onFakePaystack(secret: string, env: Partial<Env> = {}): { fake: () => FakePaystack; ps: () => Running } {
  let fake: FakePaystack | undefined
  let ps: Running | undefined
  before(async () => {
    fake = await startFakePaystack(secret)
    ps = await bootOnPaystack(fake, env)
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    await resetDb()
    ps!.services.settings.invalidate()
    fake!.requests.length = 0
    fake!.txns.clear()
    fake!.otpProviders.clear()
    fake!.trouble(null)
  })
  return { fake: () => fake!, ps: () => ps! }
}

/**
 * A visitor's mobile-money order for MTN 1GB placed on an instance on Paystack (answered 201, the prompt asked of the
 * fake): its order id and its payment's reference. The test decides what the gateway then says.
 */
export async function paystackOrder(ps: Running): Promise<{ id: number; tid: string; answer: Record<string, any> }> {
  const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  const res = await new Client(ps.url).post('/api/orders', { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
  if (res.status !== 201) throw new Error(`order not placed: ${res.status} ${res.text}`)
  return { id: res.body.id as number, tid: res.body.payment.transactionId as string, answer: res.body }
}

/** A webhook delivered to an instance's Paystack route, signed with `signature` (absent: no signature header). */
export const postPaystackWebhook = (ps: Running, body: string, signature?: string) =>
  fetch(`${ps.url}/api/webhooks/paystack`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(signature ? { 'x-paystack-signature': signature } : {}) },
    body
  })
