import pg from 'pg'
import { app } from './server.ts'

/**
 * Listens for the agents' page notices on `datahub_changes` around each test of the describe it is called in (after
 * the describe's own reset, whose writes are not heard). Answers a reader of the notices heard since its last call, up
 * to a marker it sends: notices arrive in commit order, so every commit before the marker's has been heard.
 */
export function agentPageNotices(): () => Promise<string[]> {
  let listener: pg.Client
  let heard: string[] = []
  beforeEach(async () => {
    listener = new pg.Client({ connectionString: app().db.url })
    await listener.connect()
    heard = []
    listener.on('notification', (n) => {
      if (n.payload?.startsWith('page:agent:') || n.payload?.startsWith('test:')) heard.push(n.payload)
    })
    await listener.query('LISTEN datahub_changes')
  })
  afterEach(async () => {
    await listener.end()
  })
  return async () => {
    const marker = `test:${Math.random()}`
    await app().db.sequelize.query('SELECT pg_notify(:channel, :marker)', { replacements: { channel: 'datahub_changes', marker } })
    while (!heard.includes(marker)) await new Promise((r) => setImmediate(r))
    const got = heard.slice(0, heard.indexOf(marker))
    heard = []
    return got
  }
}
