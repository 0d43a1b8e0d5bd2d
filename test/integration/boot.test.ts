import { expect } from 'chai'
import { connect } from '../../models/db.ts'
import { boot } from '../../main.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { app, testEnv } from '../helpers/server.ts'

describe('boot', () => {
  it('refuses a taken port with a clear message', async () => {
    const { sequelize, models } = connect(app().db.url)
    const taken = new URL(app().url).port
    try {
      await boot({
        env: { ...testEnv(), PORT: Number(taken) },
        log: createLogger('silent'),
        db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
      }).then(
        () => expect.fail('should not start'),
        (err: Error) => expect(err.message).to.equal(`Port ${taken} is taken. Set PORT to a free port.`)
      )
    } finally {
      await sequelize.close().catch(() => {})
    }
  })
})
