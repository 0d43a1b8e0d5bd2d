import type { Sequelize, Transaction } from 'sequelize'
import { committedAlready } from '../../../models/transaction.ts'
import type { Logger } from '../../lib/logger.ts'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import type { PaymentRow } from './provider.ts'
import { type createSettleQueries, isSettleRefusal, type PaidOrder } from './queries-settle.ts'
import type { SettleOutcome } from './settle-deps.ts'

type SettleQueries = ReturnType<typeof createSettleQueries>
type Pay = Parameters<SettleQueries['settle']>[2]
type Written = NonNullable<Parameters<SettleQueries['settle']>[4]>

/**
 * Whether a settlement may run its statement alone: a customer's order paid in full on time, queued for its vendor,
 * its text and entry written by the statement, so nothing after the statement needs its transaction (ADR 0086,
 * "Alone"). Not in a caller's transaction, nor with the caller's own write in ours unless the statement writes it (the
 * Paystack webhook's mark), nor with a copy of settings passed in.
 */
export function runsAlone(
  inTransaction: boolean,
  opts: { whenSettled?: unknown; eventSettled?: number; settings?: Settings },
  pay: Pay,
  v: { ok: boolean; excess: number } | null | undefined,
  written: Written
): boolean {
  return (
    !inTransaction &&
    (!opts.whenSettled || opts.eventSettled !== undefined) &&
    !opts.settings &&
    !!pay?.version &&
    pay.queue &&
    !!v?.ok &&
    v.excess === 0 &&
    !!written.text &&
    !!written.entry
  )
}
type Effects = (
  p: PaymentRow,
  ctx: Ctx & { transaction: Transaction },
  settings: Settings,
  late: boolean,
  paid: { order: PaidOrder | undefined; commissionRecorded: boolean | undefined; textId?: number | null; entryWritten?: boolean }
) => Promise<boolean>

/**
 * The settling statement as its own transaction (ADR 0086, "Alone"): the payment, its order paid and queued, the
 * commission, the text and the PAYMENT_SUCCESS entry, committed together; `effects` then runs after the commit in
 * `committedAlready`'s transaction, which refuses any statement: all it has left is the pump's hand-off and
 * `order.settled`, whose subscriber writes nothing for a customer's order. Undefined, with nothing written, when the
 * statement refused (the order not paid, its text or its entry not written, the order not queued): the caller then
 * settles in a transaction. `settings`: the copy whose version the statement checked.
 */
export function createSettleAlone(deps: { sequelize: Sequelize; log: Logger; queries: SettleQueries; effects: Effects }) {
  const { sequelize, log, queries, effects } = deps
  return async function settleAlone(
    transactionId: string,
    word: Parameters<SettleQueries['settle']>[1],
    pay: Pay,
    written: Written,
    settings: Settings,
    ctx: Ctx
  ): Promise<SettleOutcome | undefined> {
    let won: Awaited<ReturnType<SettleQueries['settle']>>
    try {
      won = await queries.settle(transactionId, word, pay, undefined, written, true)
    } catch (err) {
      if (isSettleRefusal(err)) return undefined
      throw err
    }
    // Settled by someone else: this statement moved no row and wrote nothing.
    if (!won) return { settled: false, row: await queries.load(transactionId) }
    const paid = { order: won.order, commissionRecorded: won.commissionRecorded, textId: won.textId, entryWritten: won.entryWritten }
    // Stryker disable next-line ConditionalExpression: a fence no input reaches: the statement refuses unless it paid the order
    if (!(await effects(won.row, { ...ctx, transaction: committedAlready(sequelize) }, settings, false, paid)))
      throw new Error('a payment settled alone was not honoured')
    // Stryker disable next-line ObjectLiteral,CallExpression: a log line (its call and its fields)
    log.info({ transactionId, status: won.row.status, purpose: won.row.purpose, late: false }, 'payment settled')
    return { settled: true, row: won.row }
  }
}
