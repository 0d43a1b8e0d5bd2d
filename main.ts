// The process entry and the composition root: `node main.ts [--dev]` (and `npm start` through
// scripts/start.ts). It stands above every channel, so it alone may join the server to the USSD
// gateway and the scheduled jobs; the server, below them, takes them as `Channels` (ADR 0035).
// First: it notes who listened for uncaught errors before Vike's import adds its own.
import { takeOverUncaughtErrors } from './server/lib/uncaught-errors.ts'
import fs from 'node:fs'
import path from 'node:path'
import type { Express } from 'express'
import { registerScheduledJobs } from './jobs/index.ts'
import { boot as bootServer, type BootOptions, type Running } from './server/index.ts'
import { loadEnv, type Env } from './server/env.ts'
import { ROOT } from './server/http/pages.ts'
import { createLogger } from './server/lib/logger.ts'
import type { Services } from './server/services/index.ts'
import { RECOVERY_TASK } from './server/services/recovery/index.ts'
import { DELIVERY_CHECK_TASK, DELIVERY_PUMP, DELIVERY_SWEEP_TASK, DELIVERY_TASK } from './server/services/delivery/index.ts'
import { PRUNE_CANDIDATES_TASK } from './server/services/orders/index.ts'
import { SMS_TASK } from './server/services/sms/index.ts'
import { REFUND_TASK } from './server/services/payments/refund.ts'
import { START_TASK } from './server/services/payments/start.ts'
import { PAYOUT_CHECK_TASK, PAYOUT_SEND_TASK, PAYOUT_SWEEP_TASK } from './server/services/payouts/index.ts'
import { ussdRouter } from './ussd/router.ts'
import { ussdSimulatorRouter } from './ussd/simulator-router.ts'

/**
 * Channels that the server mounts before the pages (the USSD simulator's phone, a shop's preview card). Each later
 * feature adds itself here; a callback from a machine outside that proves itself goes in `mountCallbacks`.
 */
export function mountChannels(app: Express, services: Services): void {
  const { env } = services.deps
  // The USSD simulator's phone (it calls the gateway's endpoint over HTTP, as the telco does).
  app.use('/api/ussd-simulator', ussdSimulatorRouter(env))
  // A shop's link-preview card; fetchers (WhatsApp) run no JavaScript and want a raster image.
  app.get('/shop/:slug/og.png', async (req, res) => {
    const png = await services.shops.ogImage(req.params.slug)
    if (!png) return void res.status(404).type('text/plain').send('Shop not found')
    res.setHeader('Cache-Control', 'public, max-age=300')
    res.type('image/png').send(png)
  })
}

/**
 * The channels' callbacks from machines outside, mounted before the browser's middleware (ADR 0089): the telco's
 * USSD gateway (POST /ussd/africastalking, /ussd/arkesel), which proves itself with the shared secret or its address
 * and whose answer a caller waits for on the phone's screen.
 */
export function mountCallbacks(app: Express, services: Services): void {
  const { env, log } = services.deps
  app.use('/ussd', ussdRouter(services, { env, log }))
}

/** Every task the job queue runs (each receives its services); registered on every instance. */
export function registerTasks(services: Services): void {
  // Scheduled: payment reconciliation and housekeeping (graphile-worker crontab, once per tick).
  registerScheduledJobs(services.queue, { services, log: services.deps.log })
  // Account recovery: find the account and send the code after /forgot has answered.
  services.queue.register(RECOVERY_TASK, (payload: { identifier: string; ip?: string | null }) => services.recovery.deliverQueued(payload))
  // A paid order to its vendor, a later confirmation, an SMS to its provider (ADR 0012).
  // A batch job's payload is an array of orders (ADR 0026, jobs queued before ADR 0056); a retry or a sweep queues one order.
  const smsIds = (sms: unknown) => (Array.isArray(sms) ? sms.map(Number).filter(Number.isInteger) : [])
  services.queue.register<{ orderId: number; sms?: unknown; agent?: unknown } | { orderId: number; sms?: unknown }[]>(DELIVERY_TASK, (p) =>
    Array.isArray(p)
      ? services.delivery.runBatch(p.map((i) => ({ orderId: Number(i.orderId), sms: smsIds(i.sms) })).filter((i) => Number.isInteger(i.orderId)))
      : services.delivery.runSend(Number(p.orderId), smsIds(p.sms), p.agent === true)
  )
  // Paid orders wait in the orders table, not as jobs (ADR 0056, 0063): pumps claim them
  // in batches, woken after each settlement's commit and every second. A pump waits for its claim's vendor
  // calls, so as many pumps run at once as the queue has workers: with fewer, orders paid one at a time
  // behind a slow vendor wait for a pump although workers are free.
  services.queue.poll(DELIVERY_PUMP, {
    run: (owner) => services.delivery.pump(owner),
    everyMs: 1000,
    lanes: services.deps.env.QUEUE_CONCURRENCY,
    batch: services.deps.env.DELIVERY_BATCH_MAX
  })
  services.queue.register<{ orderId: number }>(DELIVERY_CHECK_TASK, async (p) => void (await services.delivery.check(Number(p.orderId))))
  services.queue.register<{ id: number }>(SMS_TASK, async (p) => void (await services.sms.dispatch(Number(p.id))))
  services.queue.register(DELIVERY_SWEEP_TASK, async () => void (await services.delivery.sync()))
  services.queue.register<{ stamp: string }>(PRUNE_CANDIDATES_TASK, (p) => services.ordersAdmin.pruneExportCandidates(String(p.stamp)))
  // After a crash, deliveries a dead worker held are taken up again once they count as stale,
  // without waiting for the minute tick: one sweep job per start (keyed, so starts never pile up).
  const { env, log } = services.deps
  services.queue
    .enqueue(DELIVERY_SWEEP_TASK, {}, { jobKey: 'delivery-sweep-after-start', runAt: new Date(Date.now() + env.DELIVERY_STALE_SECONDS * 1000 + 500) })
    .catch((err) => log.warn({ err: (err as Error).message }, 'could not schedule the start-up delivery sweep'))
  // Payments (ADR 0013): the money call of a decided refund, and a charge started off the USSD hop.
  services.queue.register<{ refundId: number }>(REFUND_TASK, async ({ refundId }) => services.payments.refunds.run(refundId))
  services.queue.register<{ transactionId: string }>(START_TASK, async ({ transactionId }) => services.payments.startCharge(transactionId))
  // Payouts: the transfer send, the later question to the gateway, and the minute sweep of open payouts.
  services.queue.register<{ payoutId: number }>(PAYOUT_SEND_TASK, async ({ payoutId }) => services.payouts.runSend(Number(payoutId)))
  services.queue.register<{ payoutId: number }>(PAYOUT_CHECK_TASK, async ({ payoutId }) => void (await services.payouts.check(Number(payoutId))))
  services.queue.register(PAYOUT_SWEEP_TASK, async () => void (await services.payouts.sweep()))
  services.queue.schedule({ pattern: '* * * * *', task: PAYOUT_SWEEP_TASK, queueName: 'cron-payouts-sweep', maxAttempts: 1 })
  // Signed webhooks to agents' software, retried with backoff.
  services.resellerApi.registerTasks(services.queue)
  // WhatsApp: the bot's answers and receipts, sent in order per chat message.
  services.whatsapp.registerTasks()
}

/** The server with every channel and task joined: what the command line, tests and benches start. */
export function boot(opts: Omit<BootOptions, 'channels'> = {}): Promise<Running> {
  return bootServer({ ...opts, channels: { mount: mountChannels, mountCallbacks, registerTasks } })
}

/** The command line: `node main.ts [--dev]`, and `npm start` through scripts/start.ts. */
export function main(dev = process.argv.includes('--dev')) {
  let env: Env
  try {
    env = loadEnv(process.env, dev ? ({ NODE_ENV: 'development' } as Partial<Env>) : {})
  } catch (err) {
    console.error((err as Error).message)
    process.exit(1)
  }
  const log = createLogger(env.LOG_LEVEL)
  if (!dev && !fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs'))) {
    // The serving machine never builds: the build is made beforehand (npm start builds for you).
    console.error('No build found (dist/). Run `npm run build` first, then start again.')
    process.exit(1)
  }
  // Signals are taken from the start: one arriving while booting stops the shop once it is up.
  let running: Running | undefined
  let pending: string | undefined
  let stopping = false
  let failed = false
  // Should the stop itself hang, the process still ends (the balancer has long moved on).
  let deadlineSet = false
  const deadline = () => {
    if (deadlineSet) return
    deadlineSet = true
    setTimeout(
      () => {
        log.error('shutdown took too long; exiting')
        process.exit(1)
      },
      env.SHUTDOWN_DRAIN_MS + env.SHUTDOWN_TIMEOUT_MS + 15_000
    ).unref()
  }
  const stopNow = (r: Running) => {
    if (stopping) return
    stopping = true
    deadline()
    r.stop().then(
      () => process.exit(failed ? 1 : 0),
      (err) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      }
    )
  }
  const onSignal = (sig: string) => {
    log.info({ sig }, 'signal received')
    if (running) stopNow(running)
    else pending = sig
  }
  // An uncaught exception or an unhandled rejection leaves the process in a state nobody knows: stop as on
  // SIGTERM and exit 1, for the supervisor to start a clean one (ADR 0095). Work cut off is taken up again
  // (the durable job queue, each settlement exactly once), and the other instances serve meanwhile.
  const onUncaught = (err: unknown, kind: string) => {
    if (failed) return void log.error({ err, kind }, 'another uncaught error while stopping')
    failed = true
    log.fatal({ err, kind }, `${kind === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception'}; stopping`)
    // Booting may never finish after it; the deadline counts from now.
    deadline()
    if (running) stopNow(running)
    else pending = kind
  }
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)
  takeOverUncaughtErrors(onUncaught)
  boot({ env, log, dev }).then(
    (r) => {
      running = r
      // The built pages' entry, imported while booting, may have added Vike's listeners only now.
      takeOverUncaughtErrors(onUncaught)
      if (pending) stopNow(r)
    },
    (err) => {
      log.fatal({ err: { message: err.message } }, 'start-up failed')
      console.error(`\n${err.message}\n`)
      process.exit(1)
    }
  )
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main()
