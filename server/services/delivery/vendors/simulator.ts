import { randomUUID } from 'node:crypto'
import type { Sequelize } from 'sequelize'
import { createSimulatorQueries } from '../queries-simulator.ts'
import { VendorError, type DeliveryOrder, type DeliveryVendor, type SendResult, type StatusResult } from '../vendor.ts'

export const SIMULATOR_MODES = ['deliver', 'fail', 'timeout', 'late'] as const
export type SimulatorMode = (typeof SIMULATOR_MODES)[number]

export interface SimulatorState {
  /** How the next `remaining` deliveries behave; after them the simulator delivers again. */
  mode: SimulatorMode
  remaining: number
  /** For 'late': how long after the call the delivery is confirmed. */
  lateMs: number
  calls: number
  delivered: number
}

/**
 * The built-in vendor for a fresh install: delivers after a short delay. Its control (admin page,
 * POST /api/delivery/simulator) makes the next deliveries fail, time out or confirm late, so every
 * path can be seen without a vendor account. State lives in this process (a development tool).
 * Idempotent like a real vendor: the same key gets the same reference, never a second bundle; with
 * a key store (the shop's database), also across restarts of the shop.
 */
/** Where the simulator keeps the keys it has answered: one row per key, the first reference wins. */
export interface SimulatorKeyStore {
  remember(key: string, reference: string, confirmAt: number): Promise<{ reference: string; confirmAt: number }>
}

/**
 * The keys in the shop's database (table delivery_simulator_sends): a restart forgets none. The keys asked
 * in one turn of the event loop (a pump's claim calls the vendor for all its orders at once) are written
 * by one statement, so one commit and one WAL flush serve them all, where each key took its own. Each
 * call still answers only once its key's row is committed.
 */
export function databaseKeyStore(sequelize: Sequelize): SimulatorKeyStore {
  const queries = createSimulatorQueries(sequelize)
  type Waiter = { reference: string; confirmAt: number; answer: (row: { reference: string; confirmAt: number }) => void; fail: (err: unknown) => void }
  let waiting = new Map<string, Waiter[]>()

  async function write() {
    const turn = waiting
    waiting = new Map()
    try {
      // The first call of a key names the reference its row gets; a second call of the same key in the same turn shares that row.
      const rows = await queries.remember(
        [...turn].map(([key, [first]]) => ({ key, reference: first!.reference, confirmAt: first!.confirmAt ? new Date(first!.confirmAt) : null }))
      )
      for (const row of rows)
        for (const w of turn.get(row.key) ?? []) w.answer({ reference: row.reference, confirmAt: row.confirmAt ? row.confirmAt.getTime() : 0 })
    } catch (err) {
      for (const ws of turn.values()) for (const w of ws) w.fail(err)
    }
  }

  return {
    remember(key, reference, confirmAt) {
      return new Promise((answer, fail) => {
        if (!waiting.size) setImmediate(() => void write())
        const ws = waiting.get(key)
        if (ws) ws.push({ reference, confirmAt, answer, fail })
        else waiting.set(key, [{ reference, confirmAt, answer, fail }])
      })
    }
  }
}

export function createSimulatorVendor(opts: { delayMs: number; timeoutMs: number; store?: SimulatorKeyStore }) {
  const byKey = new Map<string, { reference: string; confirmAt: number; failed?: string }>()
  const byRef = new Map<string, { confirmAt: number; failed?: string }>()
  const initial = (): SimulatorState => ({ mode: 'deliver', remaining: 0, lateMs: 20_000, calls: 0, delivered: 0 })
  const state: SimulatorState = initial()
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

  function nextMode(): SimulatorMode {
    if (state.remaining <= 0) return 'deliver'
    state.remaining--
    return state.mode
  }

  const vendor: DeliveryVendor = {
    name: 'simulator',
    async send(_order: DeliveryOrder, key: string): Promise<SendResult> {
      state.calls++
      const seen = byKey.get(key)
      if (seen) return { status: Date.now() >= seen.confirmAt ? 'DELIVERED' : 'PENDING', reference: seen.reference }
      const mode = nextMode()
      if (opts.delayMs) await wait(opts.delayMs)
      if (mode === 'fail') throw new VendorError('Simulator: vendor answered 500 (simulated failure)', true)
      if (mode === 'timeout') {
        await wait(Math.min(opts.timeoutMs, 2000))
        throw new VendorError('Simulator: vendor did not answer in time (simulated timeout)', true)
      }
      const fresh = { reference: `SIM-${randomUUID().slice(0, 8).toUpperCase()}`, confirmAt: mode === 'late' ? Date.now() + state.lateMs : 0 }
      const { reference, confirmAt } = opts.store ? await opts.store.remember(key, fresh.reference, fresh.confirmAt) : fresh
      if (reference !== fresh.reference) return { status: Date.now() >= confirmAt ? 'DELIVERED' : 'PENDING', reference }
      byKey.set(key, { reference, confirmAt })
      byRef.set(reference, { confirmAt })
      state.delivered++
      return { status: mode === 'late' ? 'PENDING' : 'DELIVERED', reference, message: mode === 'late' ? 'Accepted; confirmation follows' : 'Delivered' }
    },
    async status(reference: string): Promise<StatusResult> {
      const r = byRef.get(reference)
      // A reference this process never issued (restarted simulator): treat it as delivered, it was accepted.
      if (!r) return { status: 'DELIVERED', message: 'Unknown to this simulator run' }
      return Date.now() >= r.confirmAt ? { status: 'DELIVERED' } : { status: 'PENDING' }
    },
    async balance() {
      return 1000
    }
  }

  return {
    vendor,
    state: () => ({ ...state }),
    control(input: { mode: SimulatorMode; count?: number; lateMs?: number }) {
      state.mode = input.mode
      state.remaining = input.mode === 'deliver' ? 0 : (input.count ?? 1)
      if (input.lateMs !== undefined) state.lateMs = input.lateMs
      return { ...state }
    },
    /**
     * As just built: modes, counts and the keys it has answered. For a database emptied under a running app (tests):
     * order ids start again at 1, so a key answered before would be answered again from memory, never sent.
     */
    reset() {
      byKey.clear()
      byRef.clear()
      Object.assign(state, initial())
    }
  }
}

export type SimulatorVendor = ReturnType<typeof createSimulatorVendor>
