import { connect } from '../../models/db.ts'
import type { Env } from '../../server/env.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import type { FakePaystack } from './fake-paystack.ts'
import { app, testEnv } from './server.ts'

/** Another app instance on the test database, with its own settings (providers pointed at local fakes). */
export async function bootInstance(env: Partial<Env> = {}): Promise<Running> {
  const url = app().db.url
  const { sequelize, models } = connect(url, undefined, { poolMax: env.DB_POOL_MAX })
  return boot({
    env: { ...testEnv(), PORT: 0, ...env },
    log: createLogger('silent'),
    db: { sequelize, models, url, close: async () => sequelize.close() }
  })
}

/** An instance whose payments go to the fake Paystack server. */
export const bootOnPaystack = (fake: FakePaystack, env: Partial<Env> = {}) =>
  bootInstance({ PAYSTACK_SECRET_KEY: fake.secret, PAYSTACK_BASE_URL: fake.url, ...env })
