import type { Sequelize, Transaction } from 'sequelize'
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts'
import { formatCedis, toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PayoutLifecycle } from './lifecycle.ts'
import type { PayoutListInput, PayoutView } from './model.ts'
import type { Payout, PayoutNumber, PayoutQueries } from './queries.ts'
import { presentPayout } from './view.ts'

export interface PayoutAdminDeps {
  sequelize: Sequelize
  audit: AuditService
  queries: PayoutQueries
  lifecycle: PayoutLifecycle
  activeNumber: (agentId: number, t?: Transaction) => Promise<PayoutNumber | null>
}

/** The back office's hand on payouts: the tabs and their export, approval, rejection and one retry. */
export function createPayoutAdmin(deps: PayoutAdminDeps) {
  const { sequelize, audit, queries, lifecycle } = deps
  const { view } = lifecycle

  return {
    /** Pages of payouts by tab. */
    async list(f: PayoutListInput) {
      const [total, payouts, counts] = await Promise.all([
        queries.countInTab(f.status),
        queries.listedInTab(f.status, f.limit, (f.page - 1) * f.limit),
        queries.countsByStatus()
      ])
      return {
        payouts: payouts.map(presentPayout),
        counts,
        pagination: { page: f.page, limit: f.limit, total, totalPages: Math.max(1, Math.ceil(total / f.limit)) }
      }
    },

    async exportRows(f: Pick<PayoutListInput, 'status'>, ctx: Ctx = {}): Promise<PayoutView[]> {
      const rows = (await queries.listedInTab(f.status, 100000)).map(presentPayout)
      await audit.record({ action: 'PAYOUTS_EXPORTED', resource: 'SYSTEM', severity: 'MEDIUM', details: { status: f.status || 'ALL', rows: rows.length } }, ctx)
      return rows
    },

    /** Releases a payout held for approval; its send is queued in the same transaction. */
    async approve(id: number, ctx: Ctx): Promise<PayoutView> {
      return sequelize.transaction(async (t) => {
        const p = await queries.approve(id, ctx.user?.id ?? null, t)
        if (!p) {
          await view(id, t)
          throw conflict('This payout is no longer waiting for approval')
        }
        await lifecycle.queueSend(id, t)
        await audit.record(
          { action: 'PAYOUT_APPROVED', resource: 'PAYOUT', resourceId: id, severity: 'HIGH', details: { agentId: p.agentId, amount: toGhs(p.amountPesewas) } },
          { ...ctx, transaction: t }
        )
        return view(id, t)
      })
    },

    /** Refuses a payout held for approval; the held money goes back to the agent's earnings. */
    async reject(id: number, reason: string, ctx: Ctx): Promise<PayoutView> {
      const done = await lifecycle.finish(id, 'REJECTED', ['PENDING_APPROVAL'], `Rejected by an admin: ${reason}`, ctx, { reason })
      if (!done) {
        await view(id)
        throw conflict('This payout is no longer waiting for approval')
      }
      return view(id)
    },

    /**
     * Sends a FAILED or REVERSED payout again as a new payout (its own hold and reference), once,
     * and only when the agent's available earnings still cover it (the first payout's money went back).
     */
    async retry(id: number, ctx: Ctx): Promise<PayoutView> {
      return sequelize.transaction(async (t) => {
        const p = await queries.lockById(id, t)
        if (!p) throw notFound('Payout not found')
        if (!['FAILED', 'REVERSED'].includes(p.status)) throw conflict('Only failed or reversed payouts can be retried')
        const again = await queries.retriedAs(id, t)
        if (again) throw conflict(`This payout was already retried as payout #${again}`)
        const number = await deps.activeNumber(p.agentId, t)
        if (!number) throw badRequest('The agent has no verified payout number now')
        let created: Payout
        try {
          created = await lifecycle.create(
            {
              agentId: p.agentId,
              amountPesewas: p.amountPesewas,
              feePesewas: p.feePesewas,
              numberId: number.id,
              needsApproval: false,
              channel: 'admin',
              retryOf: p.id
            },
            ctx,
            t
          )
        } catch (err) {
          if (err instanceof AppError && err.status === 402)
            throw new AppError(
              402,
              `The agent no longer has enough available earnings for this payout (${formatCedis(Number(err.extra?.available ?? 0))} available).`
            )
          throw err
        }
        await audit.record(
          {
            action: 'PAYOUT_RETRIED',
            resource: 'PAYOUT',
            resourceId: created.id,
            severity: 'HIGH',
            details: { retryOf: p.id, agentId: p.agentId, amount: toGhs(p.amountPesewas) }
          },
          { ...ctx, transaction: t }
        )
        return view(created.id, t)
      })
    }
  }
}
