import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from '../../models/db.ts'
import { freePort } from '../../models/embedded.ts'
import { createApp } from '../../server/app.ts'
import { vikeHandler } from '../../server/http/pages.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createServices } from '../../server/services/index.ts'
import { testEnv } from './server.ts'

/**
 * The shop's app, pages included, on a database nobody listens for: every query fails to connect, as
 * while PostgreSQL restarts. Returns its base URL and a close function.
 */
export async function startOutageApp(): Promise<{ base: string; close: () => Promise<void> }> {
  const { sequelize, models } = connect(`postgres://datahub:x@127.0.0.1:${await freePort()}/gone`)
  const log = createLogger('silent')
  const services = createServices({ sequelize, models, env: testEnv(), log, url: '' })
  const a = createApp({
    env: testEnv(),
    log,
    services,
    sessionSecret: 'outage-test-secret-long-enough-0000000',
    pages: { assets: [], render: vikeHandler(services) }
  })
  const server: Server = a.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}
