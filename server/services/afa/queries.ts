import { QueryTypes, Transaction, type Sequelize } from 'sequelize'
import type { AfaRegistrationRow } from '../../../models/rows.ts'
import { cappedCount, likePattern, phoneLikes } from '../../lib/lists.ts'

// The afa capability's reads and writes of its own rows, typed (camelCase, as the model names them).

/** A registration as the admins see it: its row, and whether the gateway was only the simulator. */
export type AfaRecord = Omit<AfaRegistrationRow, 'updatedAt'> & { simulated: boolean }

interface AfaSqlRow {
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

const record = (r: AfaSqlRow): AfaRecord => ({
  id: r.id,
  fullName: r.full_name,
  ghCard: r.gh_card,
  phone: r.phone,
  email: r.email,
  amountPesewas: r.amount_pesewas,
  paymentStatus: r.payment_status,
  paymentTransactionId: r.payment_transaction_id,
  completed: r.completed,
  completedAt: r.completed_at,
  createdAt: r.created_at,
  simulated: !!r.simulated
})

const COLS = `id, full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id, completed, completed_at, created_at,
  EXISTS (SELECT 1 FROM payments p WHERE p.transaction_id = afa_registrations.payment_transaction_id AND p.simulated) AS simulated`
const BATCH = 5000

export function createAfaQueries(sequelize: Sequelize) {
  const select = async (sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    (await sequelize.query<AfaSqlRow>(sql, { replacements, type: QueryTypes.SELECT, transaction })).map(record)

  return {
    /** A page, newest first, and its (capped) count; the search matches full name, GH card, or phone in either spelling. */
    async page(search: string | undefined, limit: number, offset: number) {
      const params: Record<string, unknown> = { limit, offset }
      let where = 'true'
      if (search) {
        params.like = likePattern(search)
        const digits = search.replace(/[\s-]/g, '')
        params.phoneLikes = /^\d+$/.test(digits) ? phoneLikes(digits) : [likePattern(search)]
        where = '(full_name ILIKE :like OR gh_card ILIKE :like OR phone LIKE ANY(ARRAY[:phoneLikes]))'
      }
      const [rows, counted] = await Promise.all([
        select(`SELECT ${COLS} FROM afa_registrations WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, params),
        cappedCount(sequelize, `FROM afa_registrations WHERE ${where}`, params)
      ])
      return { rows, total: counted.total, exact: counted.exact }
    },
    byId: async (id: number): Promise<AfaRecord | undefined> => (await select(`SELECT ${COLS} FROM afa_registrations WHERE id = :id`, { id }))[0],
    markCompleted: async (id: number): Promise<AfaRecord> =>
      (await select(`UPDATE afa_registrations SET completed = true, completed_at = now(), updated_at = now() WHERE id = :id RETURNING ${COLS}`, { id }))[0]!,
    /** Every registration, oldest first, read through a cursor in one consistent snapshot. */
    async eachBatch(write: (rows: AfaRecord[]) => Promise<void>): Promise<number> {
      let n = 0
      await sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ }, async (t) => {
        await sequelize.query(`DECLARE afa_export NO SCROLL CURSOR FOR SELECT ${COLS} FROM afa_registrations ORDER BY created_at, id`, { transaction: t })
        for (;;) {
          const rows = await select(`FETCH ${BATCH} FROM afa_export`, {}, t)
          if (rows.length === 0) break
          n += rows.length
          await write(rows)
        }
      })
      return n
    },
    /** Records a paid registration once per payment; a second call finds the first one's id. */
    async registerPaid(r: {
      fullName: string
      ghCard: string
      phone: string
      email: string | null
      amountPesewas: number
      transactionId: string
    }): Promise<number> {
      const [created] = await sequelize.query<{ id: number }>(
        `INSERT INTO afa_registrations (full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id)
         VALUES (:fullName, :ghCard, :phone, :email, :amount, 'SUCCESS', :tid)
         ON CONFLICT (payment_transaction_id) DO NOTHING RETURNING id`,
        {
          replacements: { fullName: r.fullName, ghCard: r.ghCard, phone: r.phone, email: r.email, amount: r.amountPesewas, tid: r.transactionId },
          type: QueryTypes.SELECT
        }
      )
      return (
        created?.id ??
        (
          await sequelize.query<{ id: number }>('SELECT id FROM afa_registrations WHERE payment_transaction_id = :tid', {
            replacements: { tid: r.transactionId },
            type: QueryTypes.SELECT
          })
        )[0]!.id
      )
    },
    linkPayment: (id: number, tid: string) =>
      sequelize.query('UPDATE payments SET afa_registration_id = :id WHERE transaction_id = :tid AND afa_registration_id IS NULL', {
        replacements: { id, tid }
      })
  }
}
