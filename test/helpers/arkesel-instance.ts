import { boot } from '../../main.ts'
import { connect } from '../../models/db.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { startFakeArkesel, type FakeArkesel } from '../fakes/arkesel.ts'
import { app, testEnv } from './server.ts'

/**
 * A second instance of the app on the test database whose texts go to a fake Arkesel, for the enclosing describe
 * (mocha's before/after): `fake` and `app` are set once its `before` has run.
 */
export function useArkeselInstance(): { fake: FakeArkesel; app: Running } {
  const instance = {} as { fake: FakeArkesel; app: Running }
  before(async () => {
    instance.fake = await startFakeArkesel()
    const { sequelize, models } = connect(app().db.url)
    instance.app = await boot({
      env: { ...testEnv(), PORT: 0, ARKESEL_API_KEY: instance.fake.apiKey, ARKESEL_BASE_URL: instance.fake.url },
      log: createLogger('silent'),
      db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
    })
  })
  after(async () => {
    await instance.app?.stop()
    await instance.fake?.close()
  })
  return instance
}
