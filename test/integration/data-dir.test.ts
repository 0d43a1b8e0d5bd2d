import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { openDatabase, type Database } from '../../models/db.ts'
import { freePort } from '../../models/embedded.ts'
import { migrate } from '../../models/migrate.ts'
import { loadEnv } from '../../server/env.ts'
import { createLogger } from '../../server/lib/logger.ts'

const base = path.resolve('.data/test-runs', `datadir-${process.pid}`)
const log = createLogger('silent')
const isRoot = os.userInfo().uid === 0

async function open(dataDir: string, nodeEnv: 'test' | 'production'): Promise<Database> {
  const env = loadEnv({ NODE_ENV: nodeEnv, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), SESSION_SECRET: 'x'.repeat(32) })
  return openDatabase(env, log)
}

/** Entries under /tmp and /var/tmp that look like a PostgreSQL cluster or the old relocation folder. */
function clustersInTemp(): string[] {
  const found: string[] = []
  for (const t of ['/tmp', '/var/tmp']) {
    if (!fs.existsSync(t)) continue
    for (const e of fs.readdirSync(t)) {
      const p = path.join(t, e)
      if (e === 'datahub-pg' || fs.existsSync(path.join(p, 'PG_VERSION'))) found.push(p)
    }
  }
  return found
}

describe('the embedded database lives in the data folder the owner chose', function () {
  this.timeout(120_000)
  before(() => fs.mkdirSync(base, { recursive: true, mode: 0o755 }))
  after(() => fs.rmSync(base, { recursive: true, force: true }))

  it('two data folders whose paths share their last 40 characters are two databases', async () => {
    const tail = 'same-shop-name-and-a-long-common-suffix-0123456789/data'
    const a = path.join(base, 'first', tail)
    const b = path.join(base, 'second', tail)
    expect(a.slice(-40)).to.equal(b.slice(-40))
    const one = await open(a, 'test')
    try {
      await migrate(one.sequelize, log)
      await one.sequelize.query("INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas) VALUES ('0201112222', 'MTN', 1024, 500)")
      const two = await open(b, 'test')
      try {
        await migrate(two.sequelize, log)
        const [r] = await two.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM orders', { type: QueryTypes.SELECT })
        expect(Number(r!.n)).to.equal(0)
      } finally {
        await two.close()
      }
      const [r] = await one.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM orders', { type: QueryTypes.SELECT })
      expect(Number(r!.n)).to.equal(1)
    } finally {
      await one.close()
    }
    expect(fs.existsSync(path.join(a, 'pg', 'PG_VERSION'))).to.equal(true)
    expect(fs.existsSync(path.join(b, 'pg', 'PG_VERSION'))).to.equal(true)
  })

  it('a production start keeps fsync and full_page_writes on, with the cluster inside a data folder of mode 700', async () => {
    const dataDir = path.join(base, 'private-data')
    fs.mkdirSync(dataDir, { mode: 0o700 })
    fs.chmodSync(dataDir, 0o700)
    const db = await open(dataDir, 'production')
    try {
      const [f] = await db.sequelize.query<{ fsync: string }>('SHOW fsync', { type: QueryTypes.SELECT })
      const [w] = await db.sequelize.query<{ full_page_writes: string }>('SHOW full_page_writes', { type: QueryTypes.SELECT })
      expect(f!.fsync).to.equal('on')
      expect(w!.full_page_writes).to.equal('on')
    } finally {
      await db.close()
    }
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).to.equal(true)
  })

  it('as root under a parent of mode 700, refuses to start with one clear line and creates nothing in /tmp or /var/tmp', function () {
    if (!isRoot) this.skip() // only root hands the cluster to the postgres user
    const parent = path.join(base, 'release-700')
    fs.mkdirSync(parent, { mode: 0o700 })
    fs.chmodSync(parent, 0o700)
    const dataDir = path.join(parent, 'data')
    const before = clustersInTemp()
    const r = spawnSync(process.execPath, [path.resolve('main.ts')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: '54369',
        PORT: '0',
        SESSION_SECRET: 'x'.repeat(32),
        DATABASE_URL: ''
      },
      encoding: 'utf8',
      timeout: 60_000
    })
    expect(r.status).to.equal(1)
    expect(r.stderr).to.include(
      `The embedded database cannot live in ${dataDir}: PostgreSQL runs as the "postgres" user, which cannot enter ${parent} (mode 700). ` +
        'Set DATA_DIR to a folder it can reach, such as /var/lib/datahub, or set DATABASE_URL to use another PostgreSQL server.'
    )
    expect(clustersInTemp()).to.deep.equal(before)
    expect(fs.existsSync(path.join(dataDir, 'pg'))).to.equal(false)
  })
})
