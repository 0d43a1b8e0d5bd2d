import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { ledgerEntryOf } from '../wallet/queries.ts'

// Every statement of the earnings ledger, and the typed camelCase rows they return.

const EARNINGS_TYPES = ['MARGIN', 'MARGIN_REVERSAL', 'SUB_AGENT_MARGIN', 'SUB_AGENT_MARGIN_REVERSAL', 'PAYOUT', 'PAYOUT_RETURN', 'ADJUSTMENT'] as const
export type EarningsType = (typeof EARNINGS_TYPES)[number]

export interface EarningsRow {
  id: number
  agentId: number
  type: EarningsType
  amountPesewas: number
  balanceAfterPesewas: number
  reason: string
  orderId: number | null
  payoutId: number | null
  /** A shop's checker sale: the payment whose allocated cards earned this margin. */
  paymentTransactionId: string | null
  actorUserId: number | null
  createdAt: Date
}

type Raw = Record<string, any>

const toEarnings = (r: Raw): EarningsRow => ({
  ...ledgerEntryOf<EarningsType>(r),
  orderId: r.order_id ?? null,
  payoutId: r.payout_id == null ? null : Number(r.payout_id)
})

/** An earnings entry as written: signed amount, and the balance it leaves. */
export interface NewEarningsEntry {
  agentId: number
  type: EarningsType
  amountPesewas: number
  afterPesewas: number
  reason: string
  orderId: number | null
  payoutId: number | null
  paymentTransactionId: string | null
  actorUserId: number | null
}

export function createEarningsQueries(sequelize: Sequelize) {
  return {
    /** The entry, or undefined when its fence (a unique index) says it exists already. */
    insertEntry: async (e: NewEarningsEntry, t: Transaction): Promise<EarningsRow | undefined> => {
      const [row] = await sequelize.query<Raw>(
        `INSERT INTO earnings_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, order_id, payout_id, payment_transaction_id, actor_user_id)
         VALUES (:agentId, :type, :amountPesewas, :afterPesewas, :reason, :orderId, :payoutId, :paymentTransactionId, :actorUserId)
         ON CONFLICT DO NOTHING RETURNING *`,
        { replacements: { ...e }, type: QueryTypes.SELECT, transaction: t }
      )
      return row && toEarnings(row)
    },

    /** The agent's newest entries. */
    entriesOf: async (agentId: number, limit: number): Promise<EarningsRow[]> =>
      (
        await sequelize.query<Raw>('SELECT * FROM earnings_entries WHERE agent_id = :agentId ORDER BY created_at DESC, id DESC LIMIT :limit', {
          replacements: { agentId, limit },
          type: QueryTypes.SELECT
        })
      ).map(toEarnings)
  }
}
