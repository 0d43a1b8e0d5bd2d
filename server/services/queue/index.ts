import { EventEmitter } from 'node:events'
import { makeWorkerUtils, run, runMigrations, runOnce, type Runner, type Task, type TaskList, type WorkerEvents } from 'graphile-worker'
import pg from 'pg'
import type { Sequelize, Transaction } from 'sequelize'
import { backoffMs, type ConnectionStates } from '../../lib/connection-states.ts'
import { isDbUnavailable } from '../../lib/db-unavailable.ts'
import type { Logger } from '../../lib/logger.ts'
import { createLiveness } from './liveness.ts'
import { createPatientPool } from './patient-pool.ts'
import { graphileLogger } from './logger.ts'
import { createPollers, type Poller } from './pollers.ts'
import { createQueueQueries, createWorkerPoolQueries, type QueueDepth } from './queries.ts'

/** A worker pool's liveness connection is named this prefix and the pool's id (ADR 0032). */
export { LIVENESS_PREFIX } from './queries.ts'
export type { Poller } from './pollers.ts'

/** What a task handler receives: its payload and a logger; handlers get their services when registered. */
export type TaskHandler<P = any> = (payload: P, job: { id: string; attempts: number; maxAttempts: number; log: Logger }) => Promise<void>

export interface EnqueueOptions {
  /** Enqueue inside this transaction: the job exists exactly when the change that caused it commits. */
  transaction?: Transaction
  /** One pending job per key: enqueuing again with the same key replaces the payload, never duplicates. */
  jobKey?: string
  /** 'preserve_run_at' keeps a pending job's time; 'unsafe_dedupe' leaves a pending job untouched. */
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe'
  runAt?: Date
  maxAttempts?: number
  /** Jobs in one named queue run one at a time, in order. */
  queueName?: string
  priority?: number
}

export interface CronEntry {
  /** Standard 5-field cron pattern (UTC). */
  pattern: string
  task: string
  /** Named queue, so a long run never overlaps the next tick's. */
  queueName?: string
  maxAttempts?: number
}

export interface QueueDeps {
  sequelize: Sequelize
  /** The database URL: the workers keep their own small pool (LISTEN needs a dedicated connection). */
  url: string
  log: Logger
  /** From the checked environment (server/env.ts). */
  options?: QueueOptions
  connections: ConnectionStates
}

export interface QueueOptions {
  concurrency: number
  /** Absent: concurrency + 2. */
  poolMax?: number
  completeBatchMs: number
  localSize: number
}

const DEFAULT_OPTIONS: QueueOptions = { concurrency: 8, completeBatchMs: 0, localSize: 0 }

/**
 * The one durable job queue (graphile-worker on our PostgreSQL; ADR 0011). Work is enqueued with
 * `graphile_worker.add_job` in the caller's transaction, so a crash never loses it and a rollback
 * never leaves a stray job. Every instance may run workers; PostgreSQL hands each job to one of
 * them (SKIP LOCKED). Scheduled jobs use graphile-worker's crontab, which records each tick in
 * `_private_known_crontabs`, so a tick is enqueued once however many instances reach it.
 */
export function createQueue(deps: QueueDeps) {
  const { sequelize, url, log, connections } = deps
  const options = deps.options ?? DEFAULT_OPTIONS
  const handlers = new Map<string, TaskHandler>()
  const crons: CronEntry[] = []
  let pool: pg.Pool | undefined
  let runner: Runner | undefined
  let stopping = false
  let restartTimer: NodeJS.Timeout | undefined
  // Jobs this process is running now: the ones its pools may still lock after an outage.
  const running = new Set<string>()
  let liveness: ReturnType<typeof createLiveness> | undefined
  const queries = createQueueQueries(sequelize)
  const pollers = createPollers(log, () => liveness?.current() ?? null)
  const probe = () => createWorkerPoolQueries(ownPool()).probe()

  async function databaseBack(): Promise<void> {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        await probe()
        return
      } catch {
        await new Promise((r) => setTimeout(r, backoffMs(attempt)))
      }
    }
  }

  function taskList(): TaskList {
    const list: TaskList = {}
    for (const [name, handler] of handlers) {
      const task: Task = async (payload, helpers) => {
        const job = {
          id: helpers.job.id,
          attempts: helpers.job.attempts,
          maxAttempts: helpers.job.max_attempts,
          log: log.child({ task: name, jobId: helpers.job.id })
        }
        // A job that met the database down is run again once it is back, by the worker that holds it:
        // recording the failure is as impossible as the work, and a batch job whose key moved on, or
        // a scheduled tick (one attempt), would otherwise count as failed for good. Handlers are
        // idempotent, so running one again is safe.
        for (;;) {
          try {
            return await handler(payload, job)
          } catch (err) {
            if (!isDbUnavailable(err) || stopping) throw err
            // A vendor or an agent's endpoint refusing a connection looks the same (ECONNREFUSED): only
            // a database that does not answer right now is waited for; any other failure is the job's own.
            if (
              await probe().then(
                () => true,
                () => false
              )
            )
              throw err
            job.log.warn({ err: { message: (err as Error).message } }, 'job met the database down; running it again once it is back')
            await databaseBack()
          }
        }
      }
      list[name] = task
    }
    return list
  }

  const crontab = () =>
    crons
      .map((c) => {
        const opts = [c.queueName && `queue=${c.queueName}`, c.maxAttempts && `max=${c.maxAttempts}`].filter(Boolean).join('&')
        return `${c.pattern} ${c.task}${opts ? ` ?${opts}` : ''}`
      })
      .join('\n')

  function ownPool(): pg.Pool {
    if (pool) return pool
    // One connection per concurrent job plus graphile-worker's own (LISTEN), as it asks.
    // graphile-worker's own writes (taking a job, marking it done) do not wait for the WAL flush: one
    // lost to a crash of PostgreSQL means the job runs again, which every handler allows (ADR 0024).
    // Jobs are added in our own transactions (Sequelize's pool), which keep waiting for it.
    pool = createPatientPool(
      { connectionString: url, max: options.poolMax ?? options.concurrency + 2, application_name: 'datahub-queue', options: '-c synchronous_commit=off' },
      connections,
      () => stopping
    )
    // An idle connection dropped by the server (restart, shutdown) must not crash the process.
    // At debug: the outage itself is logged once by the connection states, not once per connection.
    pool.on('error', (err) => log.debug({ err: err.message }, 'job queue: idle database connection lost'))
    pool.on('connect', (client) => client.on('error', (err) => log.debug({ err: err.message }, 'job queue: database connection lost')))
    return pool
  }

  /**
   * Fewer round trips per job under load (graphile-worker's batching): QUEUE_COMPLETE_BATCH_MS
   * (default 0: completions in one tick go in one statement; -1 turns it off) — a job whose batch
   * had not been written when the process died runs again, which our idempotent handlers allow.
   * QUEUE_LOCAL_SIZE (default off) fetches and locks that many jobs at once: after a kill -9 they
   * stay locked (4 h) unless a sweep takes them up, so it stays off unless measured worth it.
   * Failures go through the same batcher: one that cannot be written then stops the worker pool
   * (which `start` replaces) instead of rejecting where nobody awaits it.
   */
  function batching() {
    const complete = options.completeBatchMs
    const local = options.localSize
    return { completeJobBatchDelay: complete, failJobBatchDelay: Math.max(0, complete), ...(local > 1 ? { localQueue: { size: local } } : {}) }
  }

  function events(): WorkerEvents {
    const e = new EventEmitter() as WorkerEvents
    e.on('pool:create', ({ workerPool }) => {
      liveness!.attach(workerPool.id).catch((err) => log.warn({ err: { message: err.message } }, 'job queue: liveness connection not open yet'))
    })
    e.on('job:start', ({ job }) => void running.add(job.id))
    e.on('job:complete', ({ job }) => void running.delete(job.id))
    e.on('pool:listen:error', ({ error }) => connections.down('queue-listener', error))
    e.on('pool:listen:success', () => connections.up('queue-listener'))
    return e
  }

  /** Runs the workers; should the worker pool stop by itself (a completion it could not write), a new one takes over. */
  async function startRunner(opts: { concurrency?: number; pollInterval?: number }, attempt = 0): Promise<void> {
    const r = await run({
      pgPool: ownPool(),
      concurrency: opts.concurrency ?? options.concurrency,
      pollInterval: opts.pollInterval ?? 1000,
      noHandleSignals: true,
      logger: graphileLogger(log),
      taskList: taskList(),
      crontab: crontab(),
      events: events(),
      preset: { worker: batching() }
    })
    runner = r
    connections.track('queue-listener')
    const replace = (err?: unknown) => {
      if (stopping || runner !== r) return
      runner = undefined
      log.warn({ err: { message: (err as Error | undefined)?.message } }, 'job queue: worker pool stopped by itself; starting a new one')
      restartTimer = setTimeout(
        () => {
          restartTimer = undefined
          if (!stopping) startRunner(opts, attempt + 1).catch((e) => replace(e))
        },
        backoffMs(attempt + 1)
      )
    }
    r.promise.then(() => replace(), replace)
  }

  return {
    /** Registers a poller (see `Poller`); call before start(). */
    poll(name: string, poller: Poller): void {
      pollers.add(name, poller)
    },

    /** Work for this poller was just committed: a started instance runs it now. */
    wake(name: string): void {
      pollers.wake(name)
    },

    /** Registers what runs a task; call before start(). */
    register<P>(task: string, handler: TaskHandler<P>): void {
      handlers.set(task, handler as TaskHandler)
    },

    schedule(entry: CronEntry): void {
      crons.push(entry)
    },

    tasks: () => [...handlers.keys()],

    /** The crontab's entries, as registered. */
    scheduled: (): CronEntry[] => crons.map((c) => ({ ...c })),

    /** Creates or upgrades the queue's own schema (at boot, after our migrations; concurrent-safe). */
    async migrate(): Promise<void> {
      await runMigrations({ pgPool: ownPool(), logger: graphileLogger(log) })
    },

    /**
     * The job's id; null when add_job added nothing: a keyed upsert whose job a worker took while
     * add_job ran (graphile-worker then neither updates the taken job nor inserts another).
     */
    async enqueue(task: string, payload: object, opts: EnqueueOptions = {}): Promise<string | null> {
      return queries.addJob(
        {
          task,
          payload: JSON.stringify(payload),
          queueName: opts.queueName ?? null,
          runAt: opts.runAt?.toISOString() ?? null,
          maxAttempts: opts.maxAttempts ?? null,
          jobKey: opts.jobKey ?? null,
          priority: opts.priority ?? null,
          jobKeyMode: opts.jobKey ? (opts.jobKeyMode ?? 'replace') : null
        },
        opts.transaction
      )
    },

    /**
     * Many jobs in one statement (graphile-worker's add_jobs), each as `enqueue` would add it alone:
     * a bulk order's thousand delivery jobs are one round trip. Keyed jobs take the 'replace' mode.
     */
    async enqueueMany(jobs: { task: string; payload: object; jobKey?: string; maxAttempts?: number }[], transaction?: Transaction): Promise<number> {
      if (!jobs.length) return 0
      return queries.addJobs(
        jobs.map((j) => ({ task: j.task, payload: JSON.stringify(j.payload), jobKey: j.jobKey ?? null, maxAttempts: j.maxAttempts ?? null })),
        transaction
      )
    },

    /** Starts this instance's workers (and its cron scheduler). */
    async start(opts: { concurrency?: number; pollInterval?: number } = {}): Promise<void> {
      if (runner) return
      stopping = false
      liveness = createLiveness({ pool: ownPool(), config: { connectionString: url }, states: connections, log, running: () => [...running] })
      await startRunner(opts)
      pollers.start()
      log.info({ tasks: [...handlers.keys()], crons: crons.map((c) => `${c.pattern} ${c.task}`) }, 'job queue workers started')
    },

    /** Runs every job that is due now, then returns (tests, scripts). */
    async drain(): Promise<void> {
      // graphile-worker writes a job's success or failure without awaiting it; with batching on (delay 0)
      // its shutdown awaits those writes, so a caller sees every job's outcome once drain returns. A job
      // waiting behind another of its named queue (or added by a job) is not taken in the same pass while
      // that write is pending: pass again until a pass starts nothing.
      for (let pass = 0; pass < 100; pass++) {
        let started = 0
        const events = new EventEmitter() as WorkerEvents
        events.on('job:start', () => void started++)
        await runOnce({
          pgPool: ownPool(),
          logger: graphileLogger(log),
          taskList: taskList(),
          noHandleSignals: true,
          events,
          preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } }
        } as never)
        // Pollers take their work on this pass too (with no owner: nothing runs in another process).
        started += await pollers.runAll()
        if (started === 0) return
      }
    },

    /**
     * Drops named queues that hold no job and are not running one. A queue per conversation (WhatsApp
     * chats: their jobs must never run side by side) leaves one row each behind, and graphile-worker
     * looks at every free queue row when it takes a job: housekeeping keeps them few.
     */
    async dropIdleQueues(): Promise<void> {
      const utils = await makeWorkerUtils({ pgPool: ownPool(), logger: graphileLogger(log) })
      try {
        await utils.cleanup({ tasks: ['GC_JOB_QUEUES'] })
      } finally {
        await utils.release()
      }
    },

    /** Counts of jobs by state, for the admin and metrics. */
    depth: (): Promise<QueueDepth> => queries.depth(),

    /** Stops taking jobs, lets running ones finish, closes the pool. */
    async stop(): Promise<void> {
      stopping = true
      await pollers.stop()
      clearTimeout(restartTimer)
      const r = runner
      runner = undefined
      if (r) await r.stop()
      await liveness?.stop()
      liveness = undefined
      connections.forget('queue-listener')
      const p = pool
      pool = undefined
      if (p) await p.end()
    }
  }
}

export type Queue = ReturnType<typeof createQueue>
