import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { app, resetDb } from '../helpers/server.ts'

/**
 * graphile-worker's add_jobs plans its statements once per connection (generic plans), set on the function
 * by the queue's migrate at every boot (docs/decisions/0064). Checked on the function's own settings, which
 * decide PostgreSQL's planning; the queue's behaviour is the queue tests'.
 */
describe('the queue: add_jobs planned once per connection', () => {
  beforeEach(resetDb)

  const settingsOfAddJobs = async () => {
    const [row] = await app().db.sequelize.query<{ config: string[] | null }>(
      `SELECT proconfig AS config FROM pg_proc WHERE oid = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)'::regprocedure`,
      { type: QueryTypes.SELECT }
    )
    return row!.config ?? []
  }

  it('after boot, add_jobs runs with generic plans', async () => {
    expect(await settingsOfAddJobs()).to.include('plan_cache_mode=force_generic_plan')
  })

  it('a function replaced by an upgrade of the queue (its settings gone) gets it back at the next migrate, once when two instances boot at once', async () => {
    await app().db.sequelize.query('ALTER FUNCTION graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) RESET ALL')
    expect(await settingsOfAddJobs()).to.deep.equal([])
    await Promise.all([app().services.queue.migrate(), app().services.queue.migrate()])
    expect(await settingsOfAddJobs()).to.deep.equal(['plan_cache_mode=force_generic_plan'])
  })

  it('keyed jobs still replace one another', async () => {
    const { queue } = app().services
    await queue.enqueue('test.generic-plans', { n: 1 }, { jobKey: 'generic-plans:1' })
    await queue.enqueue('test.generic-plans', { n: 2 }, { jobKey: 'generic-plans:1' })
    const jobs = await app().db.sequelize.query<{ payload: { n: number } }>(
      `SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'test.generic-plans'`,
      { type: QueryTypes.SELECT }
    )
    expect(jobs.map((j) => j.payload)).to.deep.equal([{ n: 2 }])
  })
})
