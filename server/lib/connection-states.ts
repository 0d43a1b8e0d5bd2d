import type { Logger } from './logger.ts'

export type ConnectionState = { up: boolean; since: string; losses: number }

/**
 * The long-lived database connections of this instance (the app's pool, the job queue's pool and
 * LISTEN, the settings listener), each up or down. A change is logged once each way, so an outage
 * reads "lost" then "back" in the log however many retries it took; /metrics and /readyz show them.
 */
export function createConnectionStates(log: Logger) {
  const states = new Map<string, ConnectionState>()
  return {
    /** Known from now on, so /readyz lists it; starts up (it was just opened). */
    track(name: string): void {
      if (!states.has(name)) states.set(name, { up: true, since: new Date().toISOString(), losses: 0 })
    },
    up(name: string): void {
      const s = states.get(name)
      if (!s) return void states.set(name, { up: true, since: new Date().toISOString(), losses: 0 })
      if (s.up) return
      log.info({ connection: name, downSince: s.since }, 'database connection back')
      Object.assign(s, { up: true, since: new Date().toISOString() })
    },
    down(name: string, err?: unknown): void {
      const s = states.get(name) ?? { up: true, since: '', losses: 0 }
      states.set(name, s)
      if (!s.up) return
      log.warn({ connection: name, err: { message: (err as Error | undefined)?.message } }, 'database connection lost; retrying until it is back')
      Object.assign(s, { up: false, since: new Date().toISOString(), losses: s.losses + 1 })
    },
    isUp: (name: string) => states.get(name)?.up ?? false,
    allUp: () => [...states.values()].every((s) => s.up),
    snapshot: (): Record<string, ConnectionState> => Object.fromEntries([...states].map(([k, v]) => [k, { ...v }])),
    forget: (name: string) => void states.delete(name)
  }
}
export type ConnectionStates = ReturnType<typeof createConnectionStates>

/** The wait before retry n (1, 2, ...): doubling from 250 ms up to 5 s, with jitter so instances do not reconnect in step. */
export function backoffMs(attempt: number): number {
  const base = Math.min(5000, 250 * 2 ** Math.max(0, attempt - 1))
  return Math.round(base * (0.75 + Math.random() * 0.5))
}
