import type { Sequelize } from 'sequelize'
import type { Logger } from '../../lib/logger.ts'
import { ghsText, toGhs } from '../../lib/money.ts'
import type { Attention } from './attention.ts'
import type { Events } from './events.ts'
import { isDayComplete } from './gateway-days.ts'
import type { GatewayTxn, PaymentProvider } from './provider.ts'
import { createReconcileQueries, type ReconciliationRun } from './queries-reconcile.ts'
import type { createSettlement } from './settle.ts'

export interface DailyDeps {
  sequelize: Sequelize
  provider: PaymentProvider
  attention: Attention
  events: Events
  settlement: ReturnType<typeof createSettlement>
  log: Logger
}

export interface DailyResult {
  runId: number
  day: string
  gatewayCount: number
  localCount: number
  mismatches: number
}

const SETTLED_HERE = ['SUCCESS', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'REVERSED']

/**
 * Daily reconciliation: the gateway's transactions of one UTC day (Paystack
 * GET /transaction with from/to, every page) against our payments. Paid there but not here is
 * settled through the one settlement path (late money is never dropped); paid here but not there,
 * and amounts that differ, are listed on the attention page. Each run is kept.
 */
export function createDailyReconciliation(deps: DailyDeps) {
  const { sequelize, provider, log } = deps
  const queries = createReconcileQueries(sequelize)

  async function run(dayInput: Date | string, now = new Date()): Promise<DailyResult> {
    const from = new Date(
      typeof dayInput === 'string' ? `${dayInput.slice(0, 10)}T00:00:00Z` : Date.UTC(dayInput.getUTCFullYear(), dayInput.getUTCMonth(), dayInput.getUTCDate())
    )
    if (Number.isNaN(from.getTime())) throw new Error('invalid day')
    const to = new Date(from.getTime() + 86_400_000)
    const day = from.toISOString().slice(0, 10)
    const runId = await queries.startRun(day, provider.name)
    try {
      const theirs = await provider.listTransactions(from, to)
      const byRef = new Map<string, GatewayTxn>(theirs.map((t) => [t.reference, t]))
      const ours = await queries.paymentsOf(provider.name, from, to, [...byRef.keys()])
      const mine = new Map(ours.map((p) => [p.transactionId, p]))
      let mismatches = 0
      const flag = async (key: string, tid: string, summary: string, actionTaken: string, details: Record<string, unknown>) => {
        mismatches++
        await deps.attention.note({
          kind: 'recon_mismatch',
          key: `${day}:${key}:${tid}`,
          transactionId: tid,
          summary,
          actionTaken,
          details: { day, runId, ...details }
        })
      }
      for (const t of theirs) {
        const p = mine.get(t.reference)
        const paidThere = t.status === 'success'
        if (t.status === 'reversed' && p && SETTLED_HERE.includes(p.status) && p.status !== 'REVERSED' && p.status !== 'REFUNDED') {
          await deps.events.reverse(t.reference, 'reversal', 'The gateway reports this payment reversed')
          await flag('reversed', t.reference, 'Reversed at the gateway, settled here', 'Payment marked reversed; order and commission reversed', {
            gatewayStatus: t.status
          })
          continue
        }
        if (!paidThere) continue
        if (!p) {
          await flag(
            'unknown',
            t.reference,
            `Paid at the gateway (${ghsText(t.amountPesewas)}) for a reference this shop does not have`,
            'Nothing changed: check it at the gateway',
            { gatewayAmount: toGhs(t.amountPesewas) }
          )
          continue
        }
        if (!SETTLED_HERE.includes(p.status)) {
          const out = await deps.settlement.settle(t.reference, {
            status: 'SUCCESS',
            message: 'Payment confirmed by reconciliation',
            amountPesewas: t.amountPesewas,
            currency: t.currency
          })
          const now = out.row?.status ?? p.status
          await flag('not_success_here', t.reference, `Paid at the gateway but ${p.status} here`, `Settled through reconciliation: now ${now}`, {
            localStatus: p.status,
            gatewayAmount: toGhs(t.amountPesewas)
          })
          continue
        }
        const ourPaid = p.paidPesewas ?? p.amountPesewas
        if (ourPaid !== t.amountPesewas) {
          await flag(
            'amount',
            t.reference,
            `Amounts differ: ${ghsText(t.amountPesewas)} at the gateway, ${ghsText(ourPaid)} here`,
            'Nothing changed: check the payment at the gateway',
            { gatewayAmount: toGhs(t.amountPesewas), localAmount: toGhs(ourPaid) }
          )
        }
      }
      for (const p of ours) {
        if (p.status !== 'SUCCESS') continue
        const t = byRef.get(p.transactionId)
        if (!t || (t.status !== 'success' && t.status !== 'reversed')) {
          await flag(
            'not_paid_there',
            p.transactionId,
            `SUCCESS here but ${t ? t.status : 'absent'} at the gateway`,
            'Nothing changed: check the payment at the gateway before delivering more',
            { gatewayStatus: t?.status ?? null }
          )
        }
      }
      await queries.finishRun(runId, theirs.length, ours.length, mismatches)
      // A day still open (or within its late-arrival hour) is looked at but stays due for the catch-up.
      if (isDayComplete(day, now)) {
        await queries.markDayReconciled(day, provider.name, runId)
      }
      // A clean day is routine; a day with mismatches is something an admin acts on (the attention list).
      log[mismatches > 0 ? 'warn' : 'debug']({ day, runId, gateway: theirs.length, local: ours.length, mismatches }, 'daily reconciliation')
      return { runId, day, gatewayCount: theirs.length, localCount: ours.length, mismatches }
    } catch (err) {
      await queries.failRun(runId, (err as Error).message.slice(0, 300))
      throw err
    }
  }

  const runs = (limit = 30): Promise<ReconciliationRun[]> => queries.latestRuns(limit)

  return { run, runs }
}
