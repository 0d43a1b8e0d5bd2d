import Joi from 'joi'
import { QueryTypes, Transaction, type Sequelize } from 'sequelize'
import type { CsvColumn } from '../../lib/csv.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { cappedCount, likePattern, paginationOf, phoneLikes } from '../../lib/lists.ts'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

interface AfaRow {
  id: number
  full_name: string
  gh_card: string
  phone: string
  email: string | null
  amount_pesewas: number
  payment_status: string | null
  payment_transaction_id: string | null
  completed: boolean
  completed_at: Date | null
  created_at: Date
  simulated: boolean
}

export function presentAfa(r: AfaRow) {
  return {
    id: r.id,
    fullName: r.full_name,
    ghCard: r.gh_card,
    phone: r.phone,
    email: r.email,
    amount: toGhs(r.amount_pesewas),
    paymentStatus: r.payment_status,
    paymentTransactionId: r.payment_transaction_id,
    completed: r.completed,
    completedAt: r.completed_at,
    createdAt: r.created_at,
    simulated: !!r.simulated
  }
}
export type AdminAfa = ReturnType<typeof presentAfa>

export const AFA_CSV_COLUMNS: CsvColumn<AfaRow>[] = [
  { header: 'ID', kind: 'int', value: (r) => r.id },
  { header: 'Full Name', value: (r) => r.full_name },
  { header: 'GH Card Number', value: (r) => r.gh_card },
  { header: 'Phone Number', kind: 'phone', value: (r) => r.phone },
  { header: 'Email', value: (r) => r.email },
  { header: 'Amount (GHS)', kind: 'money', value: (r) => toGhs(r.amount_pesewas) },
  { header: 'Payment Status', value: (r) => r.payment_status || 'N/A' },
  { header: 'Transaction ID', kind: 'phone', value: (r) => r.payment_transaction_id },
  { header: 'Completed', kind: 'bool', value: (r) => r.completed },
  { header: 'Submitted (UTC)', kind: 'datetime', value: (r) => r.created_at },
  { header: 'Completed At (UTC)', kind: 'datetime', value: (r) => r.completed_at },
  // Paid through the payment simulator: no real money moved, so nobody should register it.
  { header: 'Simulated Payment', value: (r) => (r.simulated ? 'YES - do not register' : 'no') }
]

const listSchema = Joi.object({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  search: Joi.string().trim().max(100).allow('')
})

const COLS = `id, full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id, completed, completed_at, created_at,
  EXISTS (SELECT 1 FROM payments p WHERE p.transaction_id = afa_registrations.payment_transaction_id AND p.simulated) AS simulated`
const BATCH = 5000

export function createAfaAdminService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  return {
    /** Newest first; the search (full name, GH card, phone in either spelling) runs in SQL. */
    async list(input: Record<string, unknown>, _ctx: Ctx = {}) {
      const { value, error } = listSchema.validate(input, { convert: true, stripUnknown: true })
      if (error) throw badRequest(error.message)
      const { page, limit, search } = value as { page: number; limit: number; search?: string }
      const params: Record<string, unknown> = { limit, offset: (page - 1) * limit }
      let where = 'true'
      if (search) {
        params.like = likePattern(search)
        const digits = search.replace(/[\s-]/g, '')
        params.phoneLikes = /^\d+$/.test(digits) ? phoneLikes(digits) : [likePattern(search)]
        where = '(full_name ILIKE :like OR gh_card ILIKE :like OR phone LIKE ANY(ARRAY[:phoneLikes]))'
      }
      const [rows, counted] = await Promise.all([
        sequelize.query<AfaRow>(`SELECT ${COLS} FROM afa_registrations WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, {
          replacements: params,
          type: QueryTypes.SELECT
        }),
        cappedCount(sequelize, `FROM afa_registrations WHERE ${where}`, params)
      ])
      return { registrations: rows.map(presentAfa), pagination: paginationOf(page, limit, counted.total, counted.exact) }
    },

    /** One way only. A registration whose payment is known and not SUCCESS cannot be completed. */
    async markCompleted(id: number, ctx: Ctx = {}) {
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Invalid registration id')
      const [row] = await sequelize.query<AfaRow>(`SELECT ${COLS} FROM afa_registrations WHERE id = :id`, { replacements: { id }, type: QueryTypes.SELECT })
      if (!row) throw notFound('AFA registration not found')
      if (row.payment_status && row.payment_status !== 'SUCCESS') throw conflict('Payment must be successful before completing registration')
      if (row.completed) return presentAfa(row)
      const [updated] = await sequelize.query<AfaRow>(
        `UPDATE afa_registrations SET completed = true, completed_at = now(), updated_at = now() WHERE id = :id RETURNING ${COLS}`,
        { replacements: { id }, type: QueryTypes.SELECT }
      )
      await audit.record({ action: 'AFA_COMPLETED', resource: 'USER', resourceId: id, severity: 'LOW' }, ctx)
      return presentAfa(updated!)
    },

    /** Every registration, oldest first, read through a cursor in one consistent snapshot. */
    async exportAll(sink: { write(rows: AfaRow[]): Promise<void> }, _ctx: Ctx = {}): Promise<number> {
      let n = 0
      await sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ }, async (t) => {
        await sequelize.query(`DECLARE afa_export NO SCROLL CURSOR FOR SELECT ${COLS} FROM afa_registrations ORDER BY created_at, id`, { transaction: t })
        for (;;) {
          const rows = await sequelize.query<AfaRow>(`FETCH ${BATCH} FROM afa_export`, { type: QueryTypes.SELECT, transaction: t })
          if (rows.length === 0) break
          n += rows.length
          await sink.write(rows)
        }
      })
      return n
    }
  }
}
