import type { Sequelize } from 'sequelize'
import type { CsvColumn } from '../../lib/csv.ts'
import { conflict, notFound } from '../../lib/errors.ts'
import { paginationOf } from '../../lib/lists.ts'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { type AfaRecord, createAfaQueries } from './queries.ts'

/** GET /api/afa (admin): a page of registrations, optionally searched. */
export interface AfaListInput {
  page: number
  limit: number
  search?: string
}

export function presentAfa(r: AfaRecord) {
  return {
    id: r.id,
    fullName: r.fullName,
    ghCard: r.ghCard,
    phone: r.phone,
    email: r.email,
    amount: toGhs(r.amountPesewas),
    paymentStatus: r.paymentStatus,
    paymentTransactionId: r.paymentTransactionId,
    completed: r.completed,
    completedAt: r.completedAt,
    createdAt: r.createdAt,
    simulated: r.simulated
  }
}
export type AdminAfa = ReturnType<typeof presentAfa>

export const AFA_CSV_COLUMNS: CsvColumn<AfaRecord>[] = [
  { header: 'ID', kind: 'int', value: (r) => r.id },
  { header: 'Full Name', value: (r) => r.fullName },
  { header: 'GH Card Number', value: (r) => r.ghCard },
  { header: 'Phone Number', kind: 'phone', value: (r) => r.phone },
  { header: 'Email', value: (r) => r.email },
  { header: 'Amount (GHS)', kind: 'money', value: (r) => toGhs(r.amountPesewas) },
  { header: 'Payment Status', value: (r) => r.paymentStatus || 'N/A' },
  { header: 'Transaction ID', kind: 'phone', value: (r) => r.paymentTransactionId },
  { header: 'Completed', kind: 'bool', value: (r) => r.completed },
  { header: 'Submitted (UTC)', kind: 'datetime', value: (r) => r.createdAt },
  { header: 'Completed At (UTC)', kind: 'datetime', value: (r) => r.completedAt },
  // Paid through the payment simulator: no real money moved, so nobody should register it.
  { header: 'Simulated Payment', value: (r) => (r.simulated ? 'YES - do not register' : 'no') }
]

export function createAfaAdminService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const q = createAfaQueries(sequelize)
  return {
    /** Newest first; the search (full name, GH card, phone in either spelling) runs in SQL. */
    async list({ page, limit, search }: AfaListInput, _ctx: Ctx = {}) {
      const { rows, total, exact } = await q.page(search, limit, (page - 1) * limit)
      return { registrations: rows.map(presentAfa), pagination: paginationOf(page, limit, total, exact) }
    },

    /** One way only. A registration whose payment is known and not SUCCESS cannot be completed. */
    async markCompleted(id: number, ctx: Ctx = {}) {
      const row = await q.byId(id)
      if (!row) throw notFound('AFA registration not found')
      if (row.paymentStatus && row.paymentStatus !== 'SUCCESS') throw conflict('Payment must be successful before completing registration')
      if (row.completed) return presentAfa(row)
      const updated = await q.markCompleted(id)
      await audit.record({ action: 'AFA_COMPLETED', resource: 'USER', resourceId: id, severity: 'LOW' }, ctx)
      return presentAfa(updated)
    },

    /** Every registration, oldest first, read through a cursor in one consistent snapshot. */
    exportAll: (sink: { write(rows: AfaRecord[]): Promise<void> }, _ctx: Ctx = {}): Promise<number> => q.eachBatch((rows) => sink.write(rows))
  }
}
