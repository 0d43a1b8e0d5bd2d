import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { auditOfPaid } from '../audit/index.ts'
import { commissionOfPaid } from '../commissions/index.ts'
import { textOfWritten } from '../sms/index.ts'

// Every statement of the wallet: the reads for its pages and the admins (statements, balances, the
// shop's liability) and the money movements' own (ledger.ts, locked-balance.ts, pay.ts and
// refund-handler.ts keep the rules; each movement still runs in its caller's transaction).

export const ENTRY_TYPES = ['TOPUP', 'ORDER', 'REFUND', 'ADJUSTMENT'] as const
export type EntryType = (typeof ENTRY_TYPES)[number]

export interface EntryRow {
  id: number
  agentId: number
  type: EntryType
  amountPesewas: number
  balanceAfterPesewas: number
  reason: string
  actorUserId: number | null
  paymentTransactionId: string | null
  orderId: number | null
  createdAt: Date
}

/** A wallet_entries row as PostgreSQL returns it (bigint and numeric columns may arrive as text). */
interface WalletEntryRecord {
  id: number | string
  agent_id: number
  type: EntryType
  amount_pesewas: number | string
  balance_after_pesewas: number | string
  reason: string
  actor_user_id: number | null
  payment_transaction_id: string | null
  order_id: number | null
  /** The bulk order whose one debit this is (ADR 0039). */
  batch_id?: number | null
  created_at: Date | string
}

/** The columns every ledger of an agent's money shares (wallet and earnings entries alike). */
export const ledgerEntryOf = <T extends string>(r: Record<string, any>) => ({
  id: Number(r.id),
  agentId: r.agent_id as number,
  type: r.type as T,
  amountPesewas: Number(r.amount_pesewas),
  balanceAfterPesewas: Number(r.balance_after_pesewas),
  reason: r.reason as string,
  actorUserId: (r.actor_user_id ?? null) as number | null,
  paymentTransactionId: (r.payment_transaction_id ?? null) as string | null,
  createdAt: new Date(r.created_at)
})

const toEntry = (r: WalletEntryRecord): EntryRow => ({ ...ledgerEntryOf<EntryType>(r), orderId: r.order_id ?? null })

/** The two balances an agent's wallets row carries: what they buy with, and their shop earnings (ADR 0020). */
export type BalanceColumn = 'balance_pesewas' | 'earnings_pesewas'

/** A ledger entry as written: signed amount, and the balance it leaves. */
export interface NewEntry {
  agentId: number
  type: EntryType
  amountPesewas: number
  afterPesewas: number
  reason: string
  actorUserId: number | null
  paymentTransactionId: string | null
  orderId: number | null
  batchId: number | null
}

/**
 * A wallet order's payment and its debit, written by the order's own statement (ADR 0046, 0065): CTEs over
 * the new order (`source`), parameters from $first. The payment is written already settled (ADR 0072): SUCCESS with
 * the message, the amount paid in GHS and the time settlement's UPDATE would have given it, since the debit in the same
 * statement is what pays it. The conditional UPDATE moves the balance only when it covers the amount; a concurrent
 * movement of the same wallet makes it re-check the floor against what that one left. The entry is written from the
 * balance it returned. No wallet row, or too little in it: `e` writes nothing, and the caller's throw rolls the payment
 * row back with its order. The order's unique entry (one ORDER per order) stays the fence against a second debit.
 * The order's commission (`c`: settlement's, `commissionOfPaid` with `commissions.ofPaid`'s values) is fed by the
 * entry, so it is written only for an order the wallet paid.
 *
 * The wallet's row is locked only by the UPDATE, and the UPDATE locks only a row its join produced. The payment is
 * fed by `gate` (the last row written before the wallet may be locked: the order, or a caller's row over it such as
 * an Idempotency-Key), and the UPDATE by the payment. So whatever order PostgreSQL runs the CTEs in, every wait on
 * another request's unique key (the order's transaction id, the Idempotency-Key, the payment's) ends before the
 * wallet's row is locked, as when these were two statements; a key another request took produces no row, and then
 * nothing is paid or debited. The commission's key is the new order's own id: no other request can hold it.
 * The agent's text (`txt`, settlement's decision, none when its phone is null) is fed by `paid` like the commission:
 * it exists exactly when the order is paid (ADR 0075), and so does settlement's PAYMENT_SUCCESS entry (`pe`, ADR 0079),
 * its details completed with the order's id and whether `c` wrote the commission.
 */
export const orderPaymentOfWritten = (source: string, gate: string, first: number) => {
  const $ = (i: number) => `$${first + i}`
  const from = gate === source ? source : `${source}, ${gate}`
  return `p AS (
    INSERT INTO payments (transaction_id, purpose, gateway, method, status, message, amount_pesewas, email, order_id, agent_id, user_id,
      details, last_checked_at, settled_at, simulated)
    SELECT ${$(0)}::text, 'data', 'wallet', 'wallet', 'SUCCESS', ${$(7)}::text, ${$(1)}::int, ${$(2)}::text, ${source}.id, ${$(3)}::int, ${$(4)}::int,
      jsonb_build_object('paid', jsonb_build_object('amountPesewas', ${$(1)}::int, 'currency', 'GHS')), now(), now(), ${$(5)}::boolean
      FROM ${from} RETURNING *),
  w AS (
    UPDATE wallets SET balance_pesewas = wallets.balance_pesewas - ${$(1)}::int, updated_at = now() FROM p
    WHERE wallets.agent_id = ${$(3)}::int AND wallets.balance_pesewas >= ${$(1)}::int RETURNING wallets.balance_pesewas),
  e AS (
    INSERT INTO wallet_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, actor_user_id, payment_transaction_id, order_id)
    SELECT ${$(3)}::int, 'ORDER', -${$(1)}::bigint, w.balance_pesewas, 'Order #' || p.order_id, ${$(6)}::int, ${$(0)}::text, p.order_id FROM w, p RETURNING id),
  paid AS (SELECT ${source}.* FROM ${source} WHERE EXISTS (SELECT 1 FROM e)),
  c AS (${commissionOfPaid('paid', first + 8)}),
  txt AS (${textOfWritten('paid', first + 11)}),
  pe AS (${auditOfPaid('paid', first + 13, "jsonb_build_object('orderId', paid.id, 'commissionRecorded', EXISTS (SELECT 1 FROM c))")})`
}
/** A wallet order's payment as `orderPaymentOfWritten` writes it (the order's id comes from the order's row), and who acted. */
export interface WalletPayment {
  transactionId: string
  amountPesewas: number
  email: string | null
  agentId: number
  userId: number | null
  simulated: boolean
  actorUserId: number | null
}

/** How settlement writes a wallet order's payment settled (`payments.settledOnWrite`). */
export interface SettledOnWrite {
  /** The payment's message. */
  message: string
  /** Whether the order is queued for its vendor (delivery automatic). */
  queue: boolean
  /** `commissions.ofPaid`'s values: the commission (null: none), its type, the amount it was computed on. */
  commission: [number | null, string, number]
  /**
   * The agent's "order received" text as its outbox row (null: none), written by the order's statement; undefined:
   * not decided there (settlement's effects send it as for any payment).
   */
  text?: { phone: string; message: string } | null
  /** Settlement's PAYMENT_SUCCESS entry (`audit.ofPaid`'s parameters), written by the order's statement when the wallet paid. */
  entry: unknown[]
}

/** The ORDER debit a refund gives back: its agent, the payment it was for, and the (positive) amount it took. */
export interface RefundableDebit {
  agentId: number
  paymentTransactionId: string | null
  amountPesewas: number
}

/** A statement's filter, checked at the edge: a day is 'YYYY-MM-DD', `to` inclusive. */
export interface EntryFilter {
  type: EntryType | null
  from: string | null
  to: string | null
}

type Raw = Record<string, any>

function whereOf(f: EntryFilter): string {
  const where = ['agent_id = :agentId']
  if (f.type) where.push('type = :type')
  if (f.from) where.push('created_at >= :from::date')
  // 'to' is a whole day, inclusive
  if (f.to) where.push(`created_at < :to::date + interval '1 day'`)
  return where.join(' AND ')
}

export function createWalletQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    async countEntries(agentId: number, f: EntryFilter): Promise<number> {
      const [row] = await q(`SELECT count(*) AS n FROM wallet_entries WHERE ${whereOf(f)}`, { ...f, agentId })
      return Number(row!.n)
    },

    /** Newest first; `limit` 100000 for the CSV's every entry. */
    async entries(agentId: number, f: EntryFilter, page: { limit: number; offset: number }): Promise<EntryRow[]> {
      const rows = await q<WalletEntryRecord>(
        `SELECT * FROM wallet_entries WHERE ${whereOf(f)} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
        {
          ...f,
          agentId,
          ...page
        }
      )
      return rows.map(toEntry)
    },

    async agent(id: number): Promise<{ id: number; name: string; phone: string } | null> {
      const [row] = await q<{ id: number; name: string; phone: string }>('SELECT id, name, phone FROM agents WHERE id = :id', { id })
      return row ?? null
    },

    /** Every wallet's balance, by agent id. */
    async balances(): Promise<{ agentId: number; balancePesewas: number }[]> {
      const rows = await q('SELECT agent_id, balance_pesewas FROM wallets', {})
      return rows.map((r) => ({ agentId: Number(r.agent_id), balancePesewas: Number(r.balance_pesewas) }))
    },

    /** Makes sure the agent has a wallets row (balances 0). */
    ensureWallet: async (agentId: number, t: Transaction) => {
      await sequelize.query('INSERT INTO wallets (agent_id) VALUES (:id) ON CONFLICT (agent_id) DO NOTHING', { replacements: { id: agentId }, transaction: t })
    },

    /** One balance of the agent's wallets row, the row locked until the transaction ends. */
    lockBalance: async (agentId: number, column: BalanceColumn, t: Transaction): Promise<number> => {
      const [row] = await sequelize.query<Record<BalanceColumn, string>>(`SELECT ${column} FROM wallets WHERE agent_id = :id FOR UPDATE`, {
        replacements: { id: agentId },
        type: QueryTypes.SELECT,
        transaction: t
      })
      return Number(row![column])
    },

    setBalance: async (agentId: number, column: BalanceColumn, afterPesewas: number, t: Transaction) => {
      await sequelize.query(`UPDATE wallets SET ${column} = :after, updated_at = now() WHERE agent_id = :id`, {
        replacements: { id: agentId, after: afterPesewas },
        transaction: t
      })
    },

    /** One balance, 0 without a wallets row. The USSD confirm screen and the dashboards read it: a named statement (ADR 0024). */
    balance: async (agentId: number, column: BalanceColumn, t?: Transaction): Promise<number> => {
      const [row] = await preparedFor(sequelize)<Record<BalanceColumn, string>>(`SELECT ${column} FROM wallets WHERE agent_id = $1`, [agentId], t)
      return row ? Number(row[column]) : 0
    },

    /** The entry, or undefined when its fence (a unique index) says it exists already. */
    insertEntry: async (e: NewEntry, t: Transaction): Promise<EntryRow | undefined> => {
      const [row] = await sequelize.query<WalletEntryRecord>(
        `INSERT INTO wallet_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, actor_user_id, payment_transaction_id, order_id, batch_id)
         VALUES (:agentId, :type, :amountPesewas, :afterPesewas, :reason, :actorUserId, :paymentTransactionId, :orderId, :batchId)
         ON CONFLICT DO NOTHING RETURNING *`,
        { replacements: { ...e }, type: QueryTypes.SELECT, transaction: t }
      )
      return row && toEntry(row)
    },

    /** The wallet debit that paid this order: its own, or its batch's one debit. */
    orderDebit: async (orderId: number, t: Transaction): Promise<RefundableDebit | null> => {
      const [debit] = await sequelize.query<Raw>(
        // A bulk order's line was paid by its batch's one debit: it gets back its own amount (ADR 0039).
        `SELECT agent_id, payment_transaction_id, amount_pesewas FROM wallet_entries WHERE order_id = :id AND type = 'ORDER'
       UNION ALL
       SELECT e.agent_id, o.payment_transaction_id, -o.amount_pesewas FROM orders o JOIN wallet_entries e ON e.batch_id = o.batch_id AND e.type = 'ORDER'
        WHERE o.id = :id`,
        { replacements: { id: orderId }, type: QueryTypes.SELECT, transaction: t }
      )
      return debit ? { agentId: debit.agent_id, paymentTransactionId: debit.payment_transaction_id, amountPesewas: -Number(debit.amount_pesewas) } : null
    },

    /** What a refund needs of the payment behind it. */
    paymentOfReference: async (reference: string): Promise<{ orderId: number | null; agentId: number | null; purpose: string } | null> => {
      const [row] = await sequelize.query<{ order_id: number | null; agent_id: number | null; purpose: string }>(
        'SELECT order_id, agent_id, purpose FROM payments WHERE transaction_id = :ref',
        {
          replacements: { ref: reference },
          type: QueryTypes.SELECT
        }
      )
      return row ? { orderId: row.order_id, agentId: row.agent_id, purpose: row.purpose } : null
    },

    /** What all wallets hold together, and how many hold anything. */
    async liability(): Promise<{ totalPesewas: number; wallets: number }> {
      const [row] = await q('SELECT sum(balance_pesewas) AS total, count(*) FILTER (WHERE balance_pesewas > 0) AS n FROM wallets', {})
      // Stryker disable next-line OptionalChaining: equivalent, an aggregate without GROUP BY always answers one row
      return { totalPesewas: Number(row?.total ?? 0), wallets: Number(row?.n ?? 0) }
    }
  }
}
