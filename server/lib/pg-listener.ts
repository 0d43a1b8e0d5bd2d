import pg from 'pg'
import { backoffMs, type ConnectionStates } from './connection-states.ts'

export interface ListenerOptions {
  /** Name in logs, /metrics and /readyz; also the connection's application_name. */
  name: string
  config: pg.ClientConfig
  /** The connection's application_name, when it is not `name`. */
  applicationName?: string
  channels: string[]
  onNotify: (channel: string, payload: string | undefined) => void
  /** On each loss and each return: what was sent while nobody listened is lost, so caches must be dropped. */
  onGap?: () => void
  /** Each time the connection is (back) in place. */
  onUp?: () => void
  states: ConnectionStates
}

/** Ends the listener; `caughtUp` resolves once every notice committed before the call has been handed to `onNotify`. */
export type Listener = (() => Promise<void>) & { caughtUp(): Promise<boolean> }

/**
 * A LISTEN connection that stays: when it drops (database restart, network), it reconnects with
 * backoff for as long as it takes. A failed connect is retried like a lost connection, never
 * swallowed. Resolves once the first LISTEN is in place (or rejects when that first try fails).
 */
export async function listenForever(opts: ListenerOptions): Promise<Listener> {
  const { name, states } = opts
  let client: pg.Client | undefined
  let stopped = false
  let attempt = 0
  let timer: NodeJS.Timeout | undefined

  const retry = (err: unknown) => {
    states.down(name, err)
    opts.onGap?.()
    if (stopped || timer) return
    attempt++
    timer = setTimeout(() => {
      timer = undefined
      open().catch(retry)
    }, backoffMs(attempt))
  }

  async function open(): Promise<void> {
    if (stopped) return
    const next = new pg.Client({ ...opts.config, application_name: opts.applicationName ?? name })
    next.on('notification', (m) => opts.onNotify(m.channel, m.payload))
    next.on('error', (err) => {
      // Only the current connection's loss matters; a stale one may report late.
      if (client !== next) return
      client = undefined
      next.end().catch(() => {})
      retry(err)
    })
    try {
      await next.connect()
      for (const ch of opts.channels) await next.query(`LISTEN ${pg.escapeIdentifier(ch)}`)
    } catch (err) {
      next.end().catch(() => {})
      throw err
    }
    if (stopped) return void next.end().catch(() => {})
    client = next
    attempt = 0
    states.up(name)
    opts.onGap?.()
    opts.onUp?.()
  }

  // PostgreSQL sends a listener the notices committed before a query ahead of that query's answer, so one
  // round trip proves this side has heard them. Callers arriving while one is out wait for the next.
  let running: Promise<boolean> | undefined
  let queued: Promise<boolean> | undefined
  const roundTrip = (): Promise<boolean> => {
    const c = client
    if (!c) return Promise.resolve(false)
    running = c.query('SELECT 1').then(
      () => client === c,
      () => false
    )
    running.finally(() => (running = undefined))
    return running
  }
  const caughtUp = (): Promise<boolean> => {
    if (queued) return queued
    if (!running) return roundTrip()
    queued = running.then(() => {
      queued = undefined
      return roundTrip()
    })
    return queued
  }

  states.track(name)
  await open()
  const stop = async () => {
    stopped = true
    clearTimeout(timer)
    states.forget(name)
    await client?.end().catch(() => {})
  }
  return Object.assign(stop, { caughtUp })
}
