import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models, OrderRow, OrderViewRow } from '../../../models/index.ts'
import { namedByShape, preparedFor } from '../../../models/prepared.ts'
import { AUDIT_WRITTEN_VALUES, auditOfWritten } from '../audit/index.ts'
import { orderFromJson, paymentOfWritten, type PaymentRow } from '../payments/index.ts'
import { SETTINGS_VERSION_SQL } from '../settings/index.ts'
import type { OrderPaymentCtes, WrittenPayment } from '../wallet/index.ts'
import type { WrittenWithOrder } from './input.ts'
import { splitView, VIEW_OF_WRITTEN } from './queries-written-view.ts'

// The statements of placing an order and of what follows it (payment, lookup, Complete Order; the
// admins' list is queries-admin.ts's): rows come back camelCase, as a model's would; nothing else in orders reads a
// snake_case column. (The CSV export's one COPY statement is queries-export.ts's, streamed by exports.ts; its columns admin.ts's.)

/** The columns of a new order with their types, in NewOrder's order (its status is PENDING). */
const ORDER_COLUMNS = [
  ['user_id', 'int'],
  ['agent_id', 'int'],
  ['shop_id', 'int'],
  ['shop_agent_id', 'int'],
  ['shop_price_pesewas', 'int'],
  ['shop_agent_price_pesewas', 'int'],
  ['shop_margin_pesewas', 'int'],
  ['package_id', 'int'],
  ['package_name', 'text'],
  ['recipient_number', 'text'],
  ['network', 'text'],
  ['data_size_mb', 'int'],
  ['amount_pesewas', 'int'],
  ['payment_transaction_id', 'text'],
  ['payment_phone_number', 'text'],
  ['channel', 'text'],
  ['simulated', 'boolean'],
  ['parent_agent_id', 'int'],
  ['parent_price_pesewas', 'int'],
  ['parent_margin_pesewas', 'int']
] as const
/** The audit entry's parameters follow the order's. */
const ENTRY_FIRST = ORDER_COLUMNS.length + 1

/**
 * The PENDING order's INSERT as a CTE `o`, its values typed (an INSERT ... SELECT does not type them by the columns), with
 * `where`. `paidDelivery`: the order is written paid (a wallet order, ADR 0072), SUCCESS with this delivery status, as
 * settlement's UPDATE would have left it (`queueOnPaymentSets` on a new order: QUEUED, or NOT_STARTED when delivery is
 * manual; its attempts and error are the columns' defaults either way).
 */
const insertOrderAs = (where: string, paidDelivery?: string) => `o AS (
  INSERT INTO orders (${ORDER_COLUMNS.map(([c]) => c).join(', ')}, payment_status${paidDelivery ? ', delivery_status' : ''})
  SELECT ${ORDER_COLUMNS.map(([, type], i) => `$${i + 1}::${type}`).join(', ')}, ${paidDelivery ? `'SUCCESS', ${paidDelivery}::text` : `'PENDING'`}${where}
  RETURNING *)`

/**
 * The order and its ORDER_CREATED entry (the audit's statement, parameters from $21) in one round trip,
 * and `also`, a caller's row written over the order (parameters after the entry's), whose count comes back.
 */
const insertOrderWith = namedByShape(
  (also?: (source: string, first: number) => string) => `WITH ${insertOrderAs('')},
  entry AS (${auditOfWritten('o', ENTRY_FIRST)})${
    also
      ? `,
  also AS (${also('o', ENTRY_FIRST + AUDIT_WRITTEN_VALUES)})`
      : ''
  }
  SELECT o.*, ${SETTINGS_VERSION_SQL} AS settings_version${also ? ', (SELECT count(*) FROM also)::int AS also_written' : ''} FROM o`
)

/**
 * A wallet order's one statement (ADR 0065): the order, its ORDER_CREATED entry, `also` as above, and the wallet's
 * payment and debit (`pay`: the wallet's CTEs `p`, `w`, `e` and `c`, parameters after `also`'s). The order and its
 * payment are written settled (ADR 0072), the order with the delivery status given last (after `pay`'s), and `c` is its
 * commission. The payment is fed by `also` when there is one, else by the order, so every wait on another request's key
 * ends before the wallet's row is locked (the wallet's `orderPaymentOfWritten` says why). The payment's row comes back
 * as written (its columns null when `also` wrote nothing), with the order as JSON, whether the debit was covered and
 * whether the commission was written, and the order's orders_view row (`VIEW_OF_WRITTEN`): the answer, read by no
 * statement of its own (ADR 0079). The ORDER_CREATED entry is read by the last SELECT (`entries_before`) and
 * settlement's `pe` by nothing: PostgreSQL runs a data-modifying CTE no one reads after the rest, so the order's entry
 * gets the lower id, as when settlement's came in a later statement. A debit not covered (or a key another request took) makes the caller throw:
 * the rows written paid roll back with the transaction. `alone`: the statement is its own transaction (autocommitted,
 * ADR 0079), so it refuses by itself (`ALONE_REFUSED`, raised by its last column) whatever its caller would have
 * refused after it, and when the settings row is no longer the version given last (after the delivery status), or the
 * agent has a webhook URL: nothing of it is kept then.
 */
export const insertPaidOrderWith = namedByShape(
  (ctes: OrderPaymentCtes['ctes'], payValues: number, alsoValues: number, also: ((source: string, first: number) => string) | undefined, alone: boolean) => {
    const alsoFirst = ENTRY_FIRST + AUDIT_WRITTEN_VALUES
    const payFirst = alsoFirst + alsoValues
    const statusParam = payFirst + payValues
    const alsoWritten = also ? '(SELECT count(*) FROM also)::int' : '1'
    const hooked = 'EXISTS (SELECT 1 FROM agents a WHERE a.id = o.agent_id AND a.webhook_url IS NOT NULL)'
    return `WITH ${insertOrderAs('', `$${statusParam}`)},
  entry AS (${auditOfWritten('o', ENTRY_FIRST)} RETURNING id),${
    also
      ? `
  also AS (${also('o', alsoFirst)}),`
      : ''
  }
  ${ctes('o', also ? 'also' : 'o', payFirst)}
  SELECT p.*, to_jsonb(o) AS written_order, ${SETTINGS_VERSION_SQL} AS settings_version,
    ${alsoWritten} AS also_written, EXISTS (SELECT 1 FROM e) AS debited,
    EXISTS (SELECT 1 FROM c) AS commission_recorded,
    ${hooked} AS agent_hooked,
    (SELECT id FROM txt) AS text_id, EXISTS (SELECT 1 FROM e) AS entry_written, (SELECT count(*) FROM entry)::int AS entries_before, ${VIEW_OF_WRITTEN}${
      alone
        ? `,
    ${REFUSED}(CASE WHEN ${alsoWritten} = 0 THEN '${ALONE_REFUSED.keyTaken}' WHEN NOT EXISTS (SELECT 1 FROM e) THEN '${ALONE_REFUSED.uncovered}'
      WHEN ${SETTINGS_VERSION_SQL} IS DISTINCT FROM $${statusParam + 1}::text THEN '${ALONE_REFUSED.settingsSaved}'
      WHEN ${hooked} THEN '${ALONE_REFUSED.agentHooked}' END) AS refused`
        : ''
    }
    FROM o LEFT JOIN p ON true`
  }
)

/**
 * Why a wallet order's one autocommitted statement (ADR 0079) refused to commit, as its SQLSTATE DHW01 error's message
 * says (migration 413): another request holds the Idempotency-Key, the wallet did not cover it, the settings row was
 * saved since the copy the order went by, or the agent has a webhook URL now (its webhook job is written only in a
 * transaction). Nothing of the statement is kept.
 */
export const ALONE_REFUSED = {
  keyTaken: 'key taken',
  uncovered: 'wallet did not cover it',
  settingsSaved: 'settings saved since',
  agentHooked: 'agent hooked'
} as const
export type AloneRefusal = (typeof ALONE_REFUSED)[keyof typeof ALONE_REFUSED]
const REFUSED = 'datahub_wallet_order_refused'
const REFUSALS = new Set<string>(Object.values(ALONE_REFUSED))

/** The reason of the statement's own refusal, or undefined for any other error. */
export function aloneRefusalOf(err: unknown): AloneRefusal | undefined {
  const e = err as { code?: unknown; message?: unknown } | null
  return e?.code === 'DHW01' && typeof e.message === 'string' && REFUSALS.has(e.message) ? (e.message as AloneRefusal) : undefined
}

/**
 * The order, its ORDER_CREATED entry and its payment (payments' statement, parameters after the
 * entry's) as ONE statement, so one commit without a transaction around it: all three or none. Written
 * only while the settings row is still the version ($28) whose copy let the order in; otherwise
 * nothing is written and no row comes back. The order comes back as JSON beside the payment's row.
 */
const INSERT_ORDER_WITH_PAYMENT = `WITH ${insertOrderAs(` WHERE ${SETTINGS_VERSION_SQL} = $${ENTRY_FIRST + AUDIT_WRITTEN_VALUES}::text`)},
  entry AS (${auditOfWritten('o', ENTRY_FIRST)}),
  p AS (${paymentOfWritten('o', ENTRY_FIRST + AUDIT_WRITTEN_VALUES + 1)})
  SELECT p.*, to_jsonb(o) AS written_order FROM o, p`

/** Each column name's camelCase, worked out once: the names are the statements' own, a few dozen in all. */
const camelNames = new Map<string, string>()
const camelOf = (key: string) => {
  let name = camelNames.get(key)
  if (name === undefined) camelNames.set(key, (name = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())))
  return name
}

/** A row as pg returns it (snake_case columns) with the keys its model would use (camelCase). */
export function camelKeys(row: Record<string, unknown>): any {
  const out: Record<string, unknown> = {}
  for (const key in row) out[camelOf(key)] = row[key]
  return out
}

/** The columns of a new order, in INSERT_ORDER's order (its status is PENDING). */
export interface NewOrder {
  userId: number | null
  agentId: number | null
  shopId: number | null
  shopAgentId: number | null
  shopPricePesewas: number | null
  shopAgentPricePesewas: number | null
  shopMarginPesewas: number | null
  packageId: number
  packageName: string
  recipientNumber: string
  network: string
  dataSizeMb: number
  amountPesewas: number
  paymentTransactionId: string
  paymentPhoneNumber: string | null
  channel: string
  simulated: boolean
  parentAgentId: number | null
  parentPricePesewas: number | null
  parentMarginPesewas: number | null
}

/** A new order's parameters, in ORDER_COLUMNS' order. */
const orderValues = (o: NewOrder): unknown[] => [
  o.userId,
  o.agentId,
  o.shopId,
  o.shopAgentId,
  o.shopPricePesewas,
  o.shopAgentPricePesewas,
  o.shopMarginPesewas,
  o.packageId,
  o.packageName,
  o.recipientNumber,
  o.network,
  o.dataSizeMb,
  o.amountPesewas,
  o.paymentTransactionId,
  o.paymentPhoneNumber,
  o.channel,
  o.simulated,
  o.parentAgentId,
  o.parentPricePesewas,
  o.parentMarginPesewas
]

export type OrderQueries = ReturnType<typeof createOrderQueries>

export function createOrderQueries(sequelize: Sequelize, models: Models) {
  const run = preparedFor(sequelize)
  const plain = <T>(row: { get(o: { plain: true }): unknown } | null) => (row ? (row.get({ plain: true }) as T) : null)

  return {
    /** Whether an order or a payment already carries this transaction id (every order placed asks: a named statement, ADR 0024). */
    async transactionIdUsed(tid: string): Promise<boolean> {
      const [used] = await run<{ n: number }>(
        `SELECT 1 AS n FROM orders WHERE payment_transaction_id = $1 UNION ALL SELECT 1 FROM payments WHERE transaction_id = $1 LIMIT 1`,
        [tid]
      )
      return !!used
    },

    /**
     * The PENDING order (a named statement, no model instance: ADR 0024) with its audit entry (`entry`:
     * `audit.ofWritten`'s parameters), and the settings' version as saved when it was written.
     */
    async insert(
      o: NewOrder,
      entry: unknown[],
      transaction: Transaction,
      also?: WrittenWithOrder
    ): Promise<{ order: OrderRow; settingsVersion: string | null; alsoWritten: boolean }> {
      const [row] = await run(insertOrderWith(also?.cte), [...orderValues(o), ...entry, ...(also?.values ?? [])], transaction)
      const { settings_version: settingsVersion, also_written: alsoWritten, ...written } = row
      return { order: camelKeys(written), settingsVersion, alsoWritten: alsoWritten > 0 }
    },

    /**
     * The PENDING order, its audit entry and its payment (`payment`: `payments.withOrder`'s parameters) in one
     * statement, only while the settings row is still `settingsVersion`; undefined when it is not (nothing written).
     */
    async insertWithPayment(
      o: NewOrder,
      entry: unknown[],
      payment: unknown[],
      settingsVersion: string
    ): Promise<{ order: OrderRow; payment: PaymentRow } | undefined> {
      const [row] = await run<PaymentRow & { written_order: Record<string, unknown> }>(INSERT_ORDER_WITH_PAYMENT, [
        ...orderValues(o),
        ...entry,
        settingsVersion,
        ...payment
      ])
      if (!row) return undefined
      const { written_order: order, ...paid } = row
      return { order: camelKeys(order), payment: paid as PaymentRow }
    },

    /**
     * A wallet order: the order with its audit entry, `also`, and its payment with the wallet's debit and the order's
     * commission (`pay`), written paid, in one named statement; `paid.debited` is false when the wallet did not cover it
     * (nothing debited: the caller refuses, and its transaction rolls the rest back). `alone`: no transaction
     * (`transaction` null), the statement its own and refusing by itself (`aloneRefusalOf` reads why) unless the
     * settings row is still `settingsVersion`.
     */
    async insertPaid(
      o: NewOrder,
      entry: unknown[],
      pay: OrderPaymentCtes,
      transaction: Transaction | null,
      also?: WrittenWithOrder,
      alone?: { settingsVersion: string }
    ): Promise<{ order: OrderRow; settingsVersion: string | null; alsoWritten: boolean; paid: WrittenPayment; view: Record<string, any> }> {
      const alsoValues = also?.values ?? []
      const [written] = await run<
        PaymentRow & {
          written_order: Record<string, unknown>
          settings_version: string | null
          also_written: number
          debited: boolean
          commission_recorded: boolean
          agent_hooked: boolean
          text_id: number | null
          entry_written: boolean
        }
      >(
        insertPaidOrderWith(pay.ctes, pay.values.length, alsoValues.length, also?.cte, !!alone),
        [...orderValues(o), ...entry, ...alsoValues, ...pay.values, pay.deliveryStatus, ...(alone ? [alone.settingsVersion] : [])],
        transaction
      )
      const { view, rest } = splitView(written as unknown as Record<string, unknown>)
      const row = rest as unknown as typeof written
      const {
        written_order: order,
        settings_version: settingsVersion,
        also_written: alsoWritten,
        debited,
        commission_recorded: commissionRecorded,
        agent_hooked: agentHooked,
        text_id: textId,
        entry_written: entryWritten,
        refused: _refused,
        entries_before: _entriesBefore,
        ...payment
      } = row as typeof row & { refused?: boolean; entries_before: number }
      return {
        view,
        order: camelKeys(order),
        settingsVersion,
        alsoWritten: alsoWritten > 0,
        // Whether its agent had a webhook URL, as this statement read it: the order's events say so, and the webhook
        // subscriber reads nothing for an agent without one.
        paid: {
          payment: payment as PaymentRow,
          debited,
          order: { ...orderFromJson(order), agent_hooked: agentHooked },
          commissionRecorded,
          entryWritten,
          // The agent's text, when settlement decided it for this statement (`txt`): its row's id, or null for none.
          ...(pay.textDecided ? { textId: textId ?? null } : {})
        }
      }
    },

    byId: async (id: number) => plain<OrderRow>(await models.Order.findByPk(id)),
    viewById: async (id: number) => plain<OrderViewRow>(await models.OrderView.findByPk(id)),
    byTransactionId: async (tid: string) => plain<OrderRow>(await models.Order.findOne({ where: { paymentTransactionId: tid } })),

    /** The phone a payment prompt goes to, kept on the order (nothing written when it is already that one). */
    async setPaymentPhone(order: OrderRow, phone: string): Promise<void> {
      if (order.paymentPhoneNumber === phone) return
      await models.Order.update({ paymentPhoneNumber: phone }, { where: { id: order.id } })
    },

    /**
     * Orders whose recipient is one of these spellings, or a visitor's whose paying phone is; newest first.
     * An agent's orders match only their recipient: the agent's own number must not list every customer
     * the agent bought for.
     */
    async byPhone(variants: string[]): Promise<OrderViewRow[]> {
      const rows = await sequelize.query<Record<string, unknown>>(
        `SELECT * FROM orders_view WHERE recipient_number IN (:v) OR (agent_id IS NULL AND payment_phone_number IN (:v))
         ORDER BY created_at DESC, id DESC LIMIT 100`,
        { replacements: { v: variants }, type: QueryTypes.SELECT }
      )
      return rows.map(camelKeys)
    }
  }
}
