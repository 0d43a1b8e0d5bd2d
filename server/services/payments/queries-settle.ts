import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { commissionOfPaid, type CommissionOrder } from '../commissions/index.ts'
import { queueOnPaymentSets } from '../delivery/index.ts'
import type { DeliveryRow } from '../delivery/types.ts'
import { auditOfPaid } from '../audit/index.ts'
import { SETTINGS_VERSION_SQL } from '../settings/index.ts'
import { textOfWritten } from '../sms/index.ts'
import type { PaymentRow } from './provider.ts'

// The statements of settlement: the one conditional UPDATE out of PENDING/IN_PROGRESS, its effects
// on the order, the agent's fee and the AFA registration, and a bulk order's lines settled together.
// Payment and order rows keep the table's column names (PaymentRow, DeliveryRow: what the
// commissions and delivery capabilities take).

/** A paid order as settlement hands it to commissions and delivery. */
export type PaidOrder = DeliveryRow & CommissionOrder

/** The columns of a payment's order that its "order received" text is filled from, as read before settling. */
export interface TextOrder {
  agent_id: number | null
  batch_id: number | null
  recipient_number: string
  data_size_mb: number
  network: string
  payment_phone_number: string | null
}

/**
 * The payment's columns `settle` decides from, and all it reads of a `before` its caller read itself (the webhook's
 * read): a settlement returns the row its own statement wrote, so the other columns (the details, the timestamps)
 * would be parsed per order for nothing (ADR 0096).
 */
export type SettleBefore = Pick<
  PaymentRow,
  'transaction_id' | 'status' | 'amount_pesewas' | 'purpose' | 'order_id' | 'gateway' | 'method' | 'user_id' | 'simulated'
>
const SETTLE_BEFORE = 'transaction_id, status, amount_pesewas, purpose, order_id, gateway, method, user_id, simulated'

/**
 * Payment columns and, as `text_order`, the columns of its order that its text is filled from (ADR 0086): the select
 * list of a read `FROM payments` (`loadWithOrder`'s whole row; the webhook's read with its event's record in
 * queries-events.ts, `SETTLE_BEFORE_WITH_TEXT_ORDER`, only what `settle` decides from).
 */
const withTextOrderOf = (columns: string) => `${columns}, (SELECT jsonb_build_object('agent_id', o.agent_id, 'batch_id', o.batch_id,
           'recipient_number', o.recipient_number, 'data_size_mb', o.data_size_mb, 'network', o.network, 'payment_phone_number', o.payment_phone_number)
           FROM orders o WHERE o.id = payments.order_id) AS text_order`
export const PAYMENT_WITH_TEXT_ORDER = withTextOrderOf('payments.*')
export const SETTLE_BEFORE_WITH_TEXT_ORDER = withTextOrderOf(SETTLE_BEFORE)

export type PaymentWithTextOrder = PaymentRow & { text_order?: TextOrder | null }

/** A row read with `PAYMENT_WITH_TEXT_ORDER` as the payment's row and its order's text columns. */
export function withTextOrder<R extends SettleBefore>(row: R & { text_order?: TextOrder | null }): { row: R; order: TextOrder | null } {
  const order = row.text_order ?? null
  delete row.text_order
  return { row, order }
}

/**
 * What the settling statement writes beside the payment for a gateway's success (ADR 0086). `text`: the order's text
 * (`out`, `outboxText`'s; null: none is due) decided from the order as read (`of`). `entry`: settlement's
 * PAYMENT_SUCCESS entry, `audit.ofPaid`'s parameters. `deliveryWired`: whether the entry says if the order is queued.
 */
export interface SettleWritten {
  text?: { of: TextOrder; out: { phone: string; message: string } | null }
  entry?: unknown[]
  deliveryWired?: boolean
  /** The caller's gateway event (its id), marked handled ('Settled') by the statement exactly when it settles the payment. */
  event?: number
}

/** A gateway's non-final word, in the columns `progress` writes. */
export interface ProgressWord {
  status: string
  message: string | null
  extId: string | null
  setNeeds: boolean
  needs: string | null
}

/** The final word, in the columns the settling UPDATE writes. */
export interface FinalWord {
  status: string
  message: string | null
  extId: string | null
  paidPesewas: number | null
  currency: string | null
  /** The statuses the payment may leave. */
  from: string[]
}

/** A paid AFA registration, written as soon as the money is in. */
export interface AfaForm {
  fullName: string
  ghCard: string
  phone: string
  email: string | null
  amountPesewas: number
  transactionId: string
}

/**
 * Why the settling statement run alone refused to commit (migration 445's SQLSTATE DHS01, its message): the order not
 * paid by it (not open, or the settings row saved since the copy), its text not decided by it (an agent's or a bulk
 * order, or the columns the text was filled from changed), its entry not written (another amount than the payment's),
 * or the order not queued. Nothing of the statement is kept; the settlement runs in a transaction instead.
 */
export const SETTLE_REFUSED = {
  orderNotPaid: 'order not paid',
  textNotDecided: 'text not decided',
  entryNotWritten: 'entry not written',
  notQueued: 'order not queued'
} as const
const SETTLE_REFUSALS = new Set<string>(Object.values(SETTLE_REFUSED))

/** Whether an error is the settling statement's own refusal (nothing of it kept). */
export function isSettleRefusal(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null
  return e?.code === 'DHS01' && typeof e.message === 'string' && SETTLE_REFUSALS.has(e.message)
}

/**
 * The settling UPDATE and, when asked ($8), the order it pays and that order's commission, in one statement
 * (ADR 0055): one round trip where there were three, in the same transaction. The order's row comes back as JSON beside the payment's
 * columns (a statement answers one row shape); `orderFromJson` gives its timestamps back their type.
 *
 * A gateway's success also writes the order's text (`txt`) and settlement's PAYMENT_SUCCESS entry (`pe`) here (ADR 0086),
 * both fed by `o`, the order this statement paid, so they exist exactly when this statement settled the payment: a
 * second webhook's UPDATE moves no row, and writes neither. The text ($15, $16: `outboxText`'s phone and message, a
 * null phone for none) only for the customer's order it was decided from (`tf`: no agent, no batch, and the columns
 * the text was filled from still as read, $17-$20); `text_decided` says whether it was. The entry ($23-$30,
 * `audit.ofPaid`'s) only for an order of the payment's amount (`pd`: the one whose commission `c` decided), its details
 * completed with what the statement wrote: the gateway's id, the order's id, whether `c` wrote the commission and,
 * when delivery is wired ($31), whether the order is queued.
 *
 * The caller's gateway event ($33: the Paystack webhook's, its id) is marked handled by `gm`, fed by `p`: exactly when
 * this statement settles the payment, in its commit.
 *
 * Run alone ($32: autocommitted, ADR 0086 "Alone"), the statement refuses (raises, so nothing of it is kept) when the
 * payment moved but the order, its text or its entry was not written with it, or the order was not queued: what
 * `effects` would then write after the commit needs a transaction. A payment that did not move writes nothing.
 */
const SETTLE = `WITH v AS (SELECT ${SETTINGS_VERSION_SQL} AS version),
  p AS (
    UPDATE payments SET status = $2, message = $3, ext_transaction_id = COALESCE($4, ext_transaction_id),
      details = CASE WHEN $5::int IS NULL THEN details ELSE details || jsonb_build_object('paid', jsonb_build_object('amountPesewas', $5::int, 'currency', $6::text)) END,
      settled_at = now(), updated_at = now()
    WHERE transaction_id = $1 AND status = ANY($7::text[])
    RETURNING *),
  o AS (
    UPDATE orders SET payment_status = p.status, updated_at = now(), ${queueOnPaymentSets('$10::boolean')}
    FROM p
    WHERE $8::boolean AND p.purpose = 'data' AND orders.id = p.order_id AND orders.payment_status = ANY($9::text[])
      AND ($11::text IS NULL OR $11::text = (SELECT version FROM v))
    RETURNING orders.*),
  c AS (${commissionOfPaid('o', 12)}),
  tf AS (SELECT o.* FROM o WHERE $21::boolean AND o.agent_id IS NULL AND o.batch_id IS NULL AND o.recipient_number = $17::text
    AND o.data_size_mb = $18::int AND o.network = $19::text AND o.payment_phone_number IS NOT DISTINCT FROM $20::text),
  txt AS (${textOfWritten('tf', 15)}),
  pd AS (SELECT o.* FROM o, p WHERE $22::boolean AND o.amount_pesewas = p.amount_pesewas),
  pe AS (${auditOfPaid(
    'pd',
    23,
    `jsonb_build_object('extTransactionId', (SELECT ext_transaction_id FROM p), 'orderId', pd.id, 'commissionRecorded', EXISTS (SELECT 1 FROM c))
      || CASE WHEN $31::boolean THEN jsonb_build_object('deliveryQueued', pd.delivery_status = 'QUEUED') ELSE '{}'::jsonb END`
  )}),
  gm AS (UPDATE gateway_events SET handled = true, note = 'Settled' FROM p WHERE gateway_events.id = $33::int RETURNING gateway_events.id)
  SELECT p.*, (SELECT version FROM v) AS settings_version, (SELECT to_jsonb(o) FROM o) AS paid_order,
    EXISTS (SELECT 1 FROM c) AS commission_recorded, EXISTS (SELECT 1 FROM tf) AS text_decided, (SELECT id FROM txt) AS text_id,
    EXISTS (SELECT 1 FROM pe) AS entry_written, EXISTS (SELECT 1 FROM gm) AS event_marked,
    datahub_settlement_refused(CASE WHEN NOT $32::boolean THEN NULL
      WHEN NOT EXISTS (SELECT 1 FROM o) THEN '${SETTLE_REFUSED.orderNotPaid}'
      WHEN NOT EXISTS (SELECT 1 FROM tf) THEN '${SETTLE_REFUSED.textNotDecided}'
      WHEN NOT EXISTS (SELECT 1 FROM pe) THEN '${SETTLE_REFUSED.entryNotWritten}'
      WHEN (SELECT delivery_status FROM o) IS DISTINCT FROM 'QUEUED' THEN '${SETTLE_REFUSED.notQueued}' END) AS refused
  FROM p`

/** An order row read from JSON: its `*_at` columns as Dates, as pg gives them in a row. */
export function orderFromJson(json: Record<string, unknown>): PaidOrder {
  const order: Record<string, unknown> = { ...json }
  for (const [k, v] of Object.entries(order)) if (k.endsWith('_at') && typeof v === 'string') order[k] = new Date(v)
  return order as unknown as PaidOrder
}

export function createSettleQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  // Every payment and paid order takes this path: its statements are named (ADR 0024).
  const run = preparedFor(sequelize)

  return {
    async load(transactionId: string, transaction?: Transaction): Promise<PaymentRow | null> {
      const [row] = await run<PaymentRow>('SELECT * FROM payments WHERE transaction_id = $1', [transactionId], transaction)
      return row ?? null
    },

    /**
     * `load`, with the columns of the payment's order that its text is filled from (ADR 0086), in the same read: a
     * settlement that reads its payment first can write the text in its settling statement.
     */
    async loadWithOrder(transactionId: string, transaction?: Transaction): Promise<{ row: PaymentRow; order: TextOrder | null } | null> {
      const [row] = await run<PaymentWithTextOrder>(`SELECT ${PAYMENT_WITH_TEXT_ORDER} FROM payments WHERE transaction_id = $1`, [transactionId], transaction)
      return row ? withTextOrder(row) : null
    },

    /** PENDING -> IN_PROGRESS at most; the order it belongs to when the payment is now IN_PROGRESS. */
    async progress(transactionId: string, w: ProgressWord): Promise<{ orderId: number | null; status: string } | undefined> {
      const rows = await q<{ order_id: number | null; status: string }>(
        `UPDATE payments SET
         status = CASE WHEN :status = 'IN_PROGRESS' THEN 'IN_PROGRESS' ELSE status END,
         message = COALESCE(:message, message),
         ext_transaction_id = COALESCE(:ext, ext_transaction_id),
         details = CASE WHEN :setNeeds THEN details || jsonb_build_object('needs', CAST(:needs AS text)) ELSE details END,
         updated_at = now()
       WHERE transaction_id = :tid AND status IN ('PENDING','IN_PROGRESS')
       RETURNING order_id, status`,
        { tid: transactionId, status: w.status, message: w.message, ext: w.extId, setNeeds: w.setNeeds, needs: w.needs }
      )
      const row = rows[0]
      // Order ids start at 1, so 0 (no order) reads as null.
      return row && { orderId: Number(row.order_id) || null, status: row.status }
    },

    async orderInProgress(orderId: number): Promise<void> {
      await q(`UPDATE orders SET payment_status = 'IN_PROGRESS', updated_at = now() WHERE id = :id AND payment_status = 'PENDING' RETURNING id`, {
        id: orderId
      })
    },

    /**
     * The settling UPDATE, with the settings row's version riding along (ADR 0024); undefined when someone
     * else settled it. With `pay`, a data payment's order is paid (and queued when `pay.queue`) by the same
     * statement, as `payOrder` would (ADR 0055): `order` is that order, undefined when it was not in one of
     * `pay.openStates`. `pay.version` guards it: while not null, the order is written only when the settings
     * row is still that version (the copy `pay.queue` was decided from); `paidHere` says whether it was.
     * `pay.commission` (`commissions.ofPaid`'s values; null for none) writes the order's commission in it too;
     * `commissionRecorded` says whether it wrote one. `t` undefined with `alone`: the statement is its own transaction,
     * and refuses by itself (`isSettleRefusal`) when anything it was to write with the payment is not written.
     */
    async settle(
      transactionId: string,
      w: FinalWord,
      pay: { openStates: string[]; queue: boolean; version: string | null; commission: [number | null, string, number] | null } | null,
      t: Transaction | undefined,
      written: SettleWritten = {},
      alone = false
    ): Promise<
      | {
          row: PaymentRow
          settingsVersion?: string
          paidHere: boolean
          order?: PaidOrder
          commissionRecorded?: boolean
          textId?: number | null
          entryWritten: boolean
        }
      | undefined
    > {
      const { text, entry, deliveryWired } = written
      const rows = await run<
        PaymentRow & {
          settings_version?: string
          paid_order?: Record<string, unknown> | null
          commission_recorded?: boolean
          text_decided?: boolean
          text_id?: number | string | null
          entry_written?: boolean
          refused?: boolean
          event_marked?: boolean
        }
      >(
        SETTLE,
        [
          transactionId,
          w.status,
          w.message,
          w.extId,
          w.paidPesewas,
          w.currency,
          w.from,
          !!pay,
          pay?.openStates ?? [],
          !!pay?.queue,
          pay?.version ?? null,
          ...(pay?.commission ?? [null, null, null]),
          text?.out?.phone ?? null,
          text?.out?.message ?? null,
          text?.of.recipient_number ?? null,
          text?.of.data_size_mb ?? null,
          text?.of.network ?? null,
          text?.of.payment_phone_number ?? null,
          !!text,
          !!entry,
          ...(entry ?? [null, null, null, null, null, null, null, null]),
          !!deliveryWired,
          alone,
          written.event ?? null
        ],
        t
      )
      const row = rows[0]
      if (!row) return undefined
      const { settings_version: settingsVersion, paid_order: paid, commission_recorded: commissionRecorded, text_decided: textDecided, text_id: textId } = row
      const entryWritten = !!row.entry_written
      for (const k of ['settings_version', 'paid_order', 'commission_recorded', 'text_decided', 'text_id', 'entry_written', 'refused', 'event_marked'] as const)
        delete row[k]
      const paidHere = !!pay && (pay.version === null || pay.version === settingsVersion)
      return {
        row,
        settingsVersion,
        paidHere,
        order: paid ? orderFromJson(paid) : undefined,
        commissionRecorded,
        // Undefined: the statement decided no text (an agent's order, or columns changed since they were read).
        ...(textDecided ? { textId: textId == null ? null : Number(textId) } : {}),
        entryWritten
      }
    },

    /** The order paid (and queued for its vendor when `queue`) in one statement, while in one of `openStates`. */
    async payOrder(orderId: number, status: string, openStates: string[], queue: boolean, t: Transaction): Promise<PaidOrder | undefined> {
      const [order] = await run<PaidOrder>(
        `UPDATE orders SET payment_status = $2, updated_at = now(), ${queueOnPaymentSets('$4')}
         WHERE id = $1 AND payment_status = ANY($3::text[]) RETURNING *`,
        [orderId, status, openStates, queue],
        t
      )
      return order
    },

    async agentPhone(agentId: number, t: Transaction): Promise<{ phone: string } | undefined> {
      const [agent] = await q<{ phone: string }>('SELECT phone FROM agents WHERE id = :id', { id: agentId }, t)
      return agent
    },

    /**
     * A paid agent is never downgraded by an older attempt; a failure only counts for the attempt on
     * record. Whether the agent's row moved.
     */
    async agentFeeSettled(agentId: number, transactionId: string, status: string, success: boolean, t: Transaction): Promise<boolean> {
      const rows = await q(
        success
          ? `UPDATE agents SET payment_status = 'SUCCESS', payment_transaction_id = :tid, updated_at = now()
             WHERE id = :id AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`
          : `UPDATE agents SET payment_status = :status, updated_at = now()
             WHERE id = :id AND payment_transaction_id = :tid AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`,
        { id: agentId, tid: transactionId, status },
        t
      )
      return rows.length > 0
    },

    // Stryker disable next-line BlockStatement: unreachable: see settle.ts's `p.afa_registration_id` (no payment has a registration before it settles)
    async afaSettled(registrationId: number, status: string, t: Transaction): Promise<void> {
      // Stryker disable next-line ObjectLiteral: unreachable, as above
      await q('UPDATE afa_registrations SET payment_status = :status, updated_at = now() WHERE id = :id RETURNING id', { id: registrationId, status }, t)
    },

    /** The new registration's id (none when this payment already has one). */
    async insertAfa(f: AfaForm, t: Transaction): Promise<number | null> {
      const [reg] = await q<{ id: number }>(
        `INSERT INTO afa_registrations (full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id)
           VALUES (:fullName, :ghCard, :phone, :email, :amount, 'SUCCESS', :tid)
           ON CONFLICT (payment_transaction_id) DO NOTHING RETURNING id`,
        { fullName: f.fullName, ghCard: f.ghCard, phone: f.phone, email: f.email, amount: f.amountPesewas, tid: f.transactionId },
        t
      )
      return reg ? Number(reg.id) : null
    },

    async linkAfa(paymentId: number, registrationId: number, t: Transaction): Promise<void> {
      await q('UPDATE payments SET afa_registration_id = :rid WHERE id = :id RETURNING id', { rid: registrationId, id: paymentId }, t)
    },

    /** A bulk order's line payments, SUCCESS together. */
    async settleLinePayments(transactionIds: string[], message: string, t: Transaction): Promise<PaymentRow[]> {
      return q<PaymentRow>(
        `UPDATE payments SET status = 'SUCCESS', message = :message,
       details = CASE WHEN amount_pesewas > 0 THEN details || jsonb_build_object('paid', jsonb_build_object('amountPesewas', amount_pesewas, 'currency', 'GHS')) ELSE details END,
       settled_at = now(), updated_at = now()
     WHERE transaction_id IN (:tids) AND purpose = 'data' AND status IN ('PENDING','IN_PROGRESS')
     RETURNING *`,
        { tids: transactionIds, message },
        t
      )
    },

    /** Their orders paid (and queued for their vendor when `queue`) together. */
    async payLineOrders(orderIds: (number | null)[], queue: boolean, t: Transaction): Promise<PaidOrder[]> {
      return q<PaidOrder>(
        `UPDATE orders SET payment_status = 'SUCCESS', updated_at = now(), ${queueOnPaymentSets(':queue')}
     WHERE id IN (:ids) AND payment_status IN ('PENDING','IN_PROGRESS') RETURNING *`,
        { ids: orderIds, queue },
        t
      )
    }
  }
}
