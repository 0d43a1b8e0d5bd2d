import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { registerTasks } from '../../main.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createServices } from '../../server/services/index.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

const infoLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 30)

describe('a quiet log while idle', () => {
  beforeEach(resetDb)

  it('a tick of every job scheduled within the hour, run by two instances, logs nothing at info', async () => {
    const file = path.join(os.tmpdir(), `datahub-quiet-${process.pid}.log`)
    fs.rmSync(file, { force: true })
    const { db } = app()
    // A second set of services, as a serving instance has, whose log we read at the shop's default level.
    const services = createServices({ sequelize: db.sequelize, models: db.models, env: testEnv(), log: createLogger('info', file), url: db.url })
    registerTasks(services)
    const frequent = services.queue.scheduled().filter((c) => !/^\d/.test(c.pattern))
    expect(frequent.map((c) => c.task)).to.include.members(['reconcile', 'deliverySync', 'housekeeping'])
    const ts = new Date().toISOString()
    try {
      for (const c of frequent) {
        // The same tick reaching two instances: one runs it, the other finds it already run.
        await services.queue.enqueue(c.task, { _cron: { ts } }, { queueName: c.queueName, maxAttempts: 1 })
        await services.queue.enqueue(c.task, { _cron: { ts } }, { queueName: c.queueName, maxAttempts: 1 })
      }
      await services.queue.drain()
    } finally {
      await services.queue.stop()
    }
    const ran = await db.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM job_runs', { type: QueryTypes.SELECT })
    expect(Number(ran[0]!.n)).to.be.greaterThan(0)
    expect(await app().services.queue.depth()).to.include({ ready: 0, failed: 0 })
    expect(infoLines(file).map((l) => l.msg)).to.deep.equal([])
  })

  it('a failed job is logged at error with its id and task, never its payload', async () => {
    const file = path.join(os.tmpdir(), `datahub-quiet-fail-${process.pid}.log`)
    fs.rmSync(file, { force: true })
    const { db } = app()
    const services = createServices({ sequelize: db.sequelize, models: db.models, env: testEnv(), log: createLogger('info', file), url: db.url })
    services.queue.register('always-fails', async () => {
      throw new Error('vendor said no')
    })
    try {
      const id = await services.queue.enqueue('always-fails', { phone: '0241234567' }, { maxAttempts: 1 })
      await services.queue.drain()
      const lines = infoLines(file)
      expect(lines).to.have.length(1)
      expect(lines[0]).to.deep.include({ level: 50, job: { id, task: 'always-fails', attempts: 1, maxAttempts: 1 }, err: 'vendor said no' })
      expect(JSON.stringify(lines[0])).not.to.include('0241234567')
    } finally {
      await services.queue.stop()
    }
  })
})
