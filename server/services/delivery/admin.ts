import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import { conflict, forbidden, notFound } from '../../lib/errors.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'
import type { DeliveryQueries } from './queries.ts'
import type { DeliveryQueueing } from './queueing.ts'
import type { DeliveryState } from './state.ts'
import type { DeliveryRow } from './types.ts'
import type { Vendors } from './vendors/index.ts'
import type { SimulatorVendor } from './vendors/simulator.ts'

/** What the delivery simulator's control takes (checked by its route's schema): the next deliveries' mode, how many, how late. */
export type SimulatorInput = Parameters<SimulatorVendor['control']>[0]

/** How long a vendor's balance is shown before it is asked again. */
const BALANCE_FOR_MS = 60_000

/** The back office's hand on delivery: retry, mark delivered, the overview and the simulator's control. */
export function createDeliveryAdmin(deps: {
  sequelize: Sequelize
  env: Env
  audit: AuditService
  settings: SettingsService
  queries: DeliveryQueries
  state: Pick<DeliveryState, 'setDeliveryStatus' | 'heardAtClaim'>
  vendors: Vendors
  wakeAfter: DeliveryQueueing['wakeAfter']
}) {
  const { sequelize, env, queries, vendors } = deps
  const { setDeliveryStatus } = deps.state
  const balanceCache = new Map<string, { at: number; value: number | null; error?: string }>()

  async function balanceOf(name: string) {
    const hit = balanceCache.get(name)
    if (hit && Date.now() - hit.at < BALANCE_FOR_MS) return hit
    const vendor = vendors.get(name)
    let entry: { at: number; value: number | null; error?: string }
    try {
      entry = { at: Date.now(), value: vendor ? await vendor.balance() : null, error: vendor ? undefined : 'Not configured' }
    } catch (err) {
      entry = { at: Date.now(), value: null, error: (err as Error).message }
    }
    balanceCache.set(name, entry)
    return entry
  }

  return {
    /** 'Retry delivery' (admin): a FAILED order, or a paid one never sent (manual mode), goes to its vendor again. */
    async retry(orderId: number, ctx: Ctx = {}): Promise<DeliveryRow> {
      const order = await queries.load(orderId)
      if (!order) throw notFound('Order not found')
      if (order.payment_status !== 'SUCCESS') throw conflict('Only paid orders can be delivered')
      if (!['FAILED', 'NOT_STARTED'].includes(order.delivery_status)) throw conflict('This order is already delivered or on its way')
      return sequelize.transaction(async (t) => {
        // The vendor is chosen again: the settings may have changed since it failed.
        const row = await setDeliveryStatus(orderId, 'QUEUED', { attempts: 'reset', error: null, vendor: null, via: 'admin' }, { ...ctx, transaction: t })
        if (!row) throw conflict('This order is already delivered or on its way')
        // QUEUED with no attempt, the order is left to the pump (ADR 0056, 0063): a job as well would call the vendor twice.
        deps.wakeAfter(t, [], deps.state.heardAtClaim(row))
        await deps.audit.record(
          {
            action: 'DELIVERY_RETRIED',
            resource: 'ORDER',
            resourceId: orderId,
            severity: 'MEDIUM',
            details: { previous: order.delivery_status, error: order.delivery_error }
          },
          { ...ctx, transaction: t }
        )
        return row
      })
    },

    /** 'Mark delivered' (admin): MANUAL, audited as ORDER_DELIVERED. */
    async markManual(orderId: number, ctx: Ctx = {}): Promise<DeliveryRow | null> {
      return setDeliveryStatus(orderId, 'MANUAL', { via: 'admin' }, ctx)
    },

    /** Overview: failed deliveries ('Needs attention') and each vendor's balance against the threshold. */
    async overview() {
      const s = await deps.settings.get()
      const [needsAttention, inFlight] = await Promise.all([queries.needsAttention(), queries.inFlight()])
      const names = [...new Set(NETWORKS.map((n) => vendors.nameFor(n, s)))]
      const balances = await Promise.all(
        names.map(async (name) => {
          const entry = await balanceOf(name)
          const low = entry.value !== null && entry.value < s.deliveryLowBalanceThreshold
          return { vendor: name, balance: entry.value, low, error: entry.error ?? null }
        })
      )
      return { mode: s.deliveryMode, needsAttention, inFlight, lowBalanceThreshold: s.deliveryLowBalanceThreshold, balances }
    },

    simulatorState: () => vendors.simulator.state(),

    /** The simulator vendor's control: development, or an admin anywhere. */
    simulatorControl(input: SimulatorInput, ctx: Ctx = {}) {
      if (env.NODE_ENV === 'production' && ctx.user?.role !== 'ADMIN') throw forbidden('The delivery simulator control is for admins')
      return vendors.simulator.control(input)
    }
  }
}
