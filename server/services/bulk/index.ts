import Joi from 'joi'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { ghsText, toGhs, toPesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { PaymentsService, PaymentView } from '../payments/index.ts'
import type { PricingService, Quote } from '../pricing/index.ts'
import type { AgentWebhooks } from '../reseller-api/webhooks.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { balanceOf } from '../wallet/ledger.ts'
import { acceptAwaitingPayment, acceptFromWallet, payLines, type StoredLine } from './accept.ts'
import { NOTHING_TO_ORDER, parseText, parseXlsx, TEMPLATE_CSV, type RawLine } from './parse.ts'
import { catalogue, checkLines, networkOfWord, presentLines, type CheckedLine } from './preview.ts'
import { COUNTS_SQL, presentBatch, presentBatchLine, type BatchCounts, type BatchRow, type BatchView } from './view.ts'

export type { BatchLineView, BatchView } from './view.ts'

/** What the portal sends: pasted text, a CSV file's text or an .xlsx file in base64 (one of them). */
const sourceSchema = Joi.object({
  text: Joi.string().allow('').max(200_000),
  csv: Joi.string().allow('').max(200_000),
  xlsx: Joi.string().base64().max(2_000_000).messages({ '*': 'The Excel file must be sent as base64' }),
  allowDuplicates: Joi.boolean().default(false),
  sms: Joi.boolean().default(false),
  expectedTotal: Joi.number().min(0).precision(2),
  // Mobile money: the total in one payment from this phone (like a wallet top-up), the lines written when it succeeds.
  pay: Joi.string().valid('wallet', 'momo').default('wallet').messages({ '*': 'pay must be wallet or momo' }),
  payerPhone: Joi.string().allow('', null).max(20),
  payerNetwork: Joi.string().allow('', null).max(20)
})
  .oxor('text', 'csv', 'xlsx')
  .options({ stripUnknown: true })

/** What the reseller API sends: lines as JSON. */
const apiLineSchema = Joi.object({
  recipientNumber: Joi.alternatives(Joi.string().allow(''), Joi.number()).required(),
  network: Joi.string().allow('', null),
  packageId: Joi.number().integer().min(1).max(2_147_483_647),
  bundle: Joi.string().allow('').max(60)
}).options({ stripUnknown: true })
const apiSchema = Joi.object({
  lines: Joi.array().items(apiLineSchema).min(1).required().messages({
    'array.min': NOTHING_TO_ORDER,
    'any.required': 'lines is required: an array of lines, each with recipientNumber and packageId or bundle (network optional)'
  }),
  allowDuplicates: Joi.boolean().default(false),
  sms: Joi.boolean().default(false)
}).options({ stripUnknown: true })

const listSchema = Joi.object({
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })

export interface PreviewResult {
  lines: ReturnType<typeof presentLines>
  count: number
  refused: number
  duplicates: number
  total: number
  balance: number
  enough: boolean
  maxLines: number
}

type Source = {
  lines: RawLine[]
  allowDuplicates: boolean
  sms: boolean
  expectedTotal?: number
  pay?: 'wallet' | 'momo'
  payerPhone?: string | null
  payerNetwork?: string | null
}

export type BulkService = ReturnType<typeof createBulkService>

/**
 * Bulk orders (ADR 0039): an agent's list of up to `bulkMaxLines` numbers, checked on the server
 * like single orders, paid once from the wallet, each line an ordinary order carrying its batch.
 */
export function createBulkService(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  packages: PackagesService
  pricing: Pick<PricingService, 'quotes'>
  payments: PaymentsService
  sms: SmsService
  webhooks: Pick<AgentWebhooks, 'onBatchCompleted'>
}) {
  const { sequelize, packages, settings } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const nameOf = (p: PackageRow) => packages.present(p).name

  /**
   * Bulk lines are priced by the one price rule (ADR 0041), for the whole catalogue at once; a
   * sub-agent's line carries its parent's price and margin, as a single order does.
   */
  async function linePrices(actor: Actor, rows: PackageRow[]): Promise<(p: PackageRow) => Quote> {
    const quotes = await deps.pricing.quotes(actor, rows)
    return (p) => quotes.get(p.id)!
  }

  async function sourceOf(raw: unknown): Promise<Source> {
    const { value, error } = sourceSchema.validate(raw ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const isWord = (w: string) => networkOfWord(w) !== null
    const lines = value.xlsx ? await parseXlsx(Buffer.from(value.xlsx, 'base64')) : parseText(value.text ?? value.csv ?? '', isWord)
    return {
      lines,
      allowDuplicates: value.allowDuplicates,
      sms: value.sms,
      expectedTotal: value.expectedTotal,
      pay: value.pay,
      payerPhone: value.payerPhone,
      payerNetwork: value.payerNetwork
    }
  }

  function apiSourceOf(raw: unknown): Source {
    const { value, error } = apiSchema.validate(raw && typeof raw === 'object' ? raw : {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const lines = (value.lines as { recipientNumber: string | number; network?: string | null; packageId?: number; bundle?: string }[]).map((l, i) => ({
      line: i + 1,
      recipient: String(l.recipientNumber ?? '').trim(),
      network: l.network ?? '',
      bundle: l.packageId !== undefined ? String(l.packageId) : (l.bundle ?? '')
    }))
    return { lines, allowDuplicates: value.allowDuplicates, sms: value.sms }
  }

  /** Checks every line against the catalogue read once; a batch over the limit is refused whole. */
  async function check(src: Source, actor: Actor) {
    if (!src.lines.length) throw badRequest(NOTHING_TO_ORDER)
    const s = await settings.get()
    if (src.lines.length > s.bulkMaxLines) throw badRequest(`A bulk order holds at most ${s.bulkMaxLines} lines; this one has ${src.lines.length}`)
    const rows = await packages.listActive()
    const cat = catalogue(rows, nameOf)
    const lines = checkLines(src.lines, cat, await linePrices(actor, rows))
    const ok = lines.filter((l) => !l.error)
    const totalPesewas = ok.reduce((sum, l) => sum + l.pricePesewas, 0)
    return { lines, ok, totalPesewas, byId: new Map(rows.map((p) => [p.id, p])), settings: s }
  }

  function agentOf(ctx: Ctx): Actor & { agent: NonNullable<Actor['agent']> } {
    requireActiveAgent(ctx, 'Bulk orders')
    return ctx.user as Actor & { agent: NonNullable<Actor['agent']> }
  }

  async function preview(src: Source, actor: Actor & { agent: NonNullable<Actor['agent']> }): Promise<PreviewResult> {
    const { lines, ok, totalPesewas, settings: s } = await check(src, actor)
    const balancePesewas = await balanceOf(sequelize, actor.agent.id)
    return {
      lines: presentLines(lines),
      count: lines.length,
      refused: lines.length - ok.length,
      duplicates: lines.filter((l) => l.duplicateOf !== null).length,
      total: toGhs(totalPesewas)!,
      balance: toGhs(balancePesewas)!,
      enough: balancePesewas >= totalPesewas,
      maxLines: s.bulkMaxLines
    }
  }

  const lineErrors = (lines: CheckedLine[]) => lines.filter((l) => l.error).map((l) => ({ line: l.line, error: l.error }))

  async function accept(
    src: Source,
    actor: Actor & { agent: NonNullable<Actor['agent']> },
    ctx: Ctx,
    channel: 'web' | 'api',
    andThen?: (batchId: number, t: Transaction) => Promise<void>
  ): Promise<{ id: number; payment?: PaymentView }> {
    const { lines, ok, totalPesewas, byId, settings: s } = await check(src, actor)
    if (!s.platformOpen) throw forbidden('Purchases are temporarily disabled')
    const refused = lineErrors(lines)
    if (refused.length) throw new AppError(422, `${refused.length} of ${lines.length} lines cannot be ordered: fix or drop them`, { lines: refused })
    const dups = lines.filter((l) => l.duplicateOf !== null)
    if (dups.length && !src.allowDuplicates) {
      throw new AppError(422, 'Some lines repeat a number with the same bundle: allow duplicates to send them anyway', {
        lines: dups.map((l) => ({ line: l.line, error: `Same number and bundle as line ${l.duplicateOf}` }))
      })
    }
    if (src.expectedTotal !== undefined && toPesewas(src.expectedTotal) !== totalPesewas)
      throw conflict(`Prices changed since the preview: the total is now ${ghsText(totalPesewas)}. Check it and pay again.`)
    const input = { actor, lines: ok, packageOf: (id: number) => byId.get(id)!, nameOf, channel, notifySms: src.sms, settings: s, andThen }
    if (src.pay !== 'momo') return { id: await acceptFromWallet(deps, input, ctx) }
    const { batchId, transactionId } = await acceptAwaitingPayment(deps, input)
    try {
      const payment = await deps.payments.request(
        {
          purpose: 'batch',
          transactionId,
          amountPesewas: totalPesewas,
          payerPhone: src.payerPhone,
          payerNetwork: src.payerNetwork,
          agentId: actor.agent.id,
          userId: actor.id,
          method: 'momo'
        },
        ctx
      )
      return { id: batchId, payment }
    } catch (err) {
      // No payment started (a bad phone, the gateway down): the batch goes too, so bad input changes
      // nothing. Should the gateway prompt the payer all the same, that money lands in the wallet.
      await q(`DELETE FROM order_batches WHERE id = :id AND status = 'AWAITING_PAYMENT' RETURNING id`, { id: batchId })
      throw err
    }
  }

  async function batchesWith(rows: BatchRow[]): Promise<BatchView[]> {
    if (!rows.length) return []
    const counts = await q<BatchCounts & { batch_id: number }>(COUNTS_SQL, { ids: rows.map((r) => r.id) })
    const byId = new Map(counts.map((c) => [c.batch_id, c]))
    return rows.map((r) => presentBatch(r, byId.get(r.id)))
  }

  async function ownBatch(idRaw: unknown, agentId: number | null): Promise<BatchRow> {
    const id = Number(idRaw)
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw notFound('Bulk order not found')
    const [row] = await q<BatchRow>('SELECT * FROM order_batches WHERE id = :id AND (:agentId::int IS NULL OR agent_id = :agentId)', { id, agentId })
    // Another agent's batch reads exactly like a missing one.
    if (!row) throw notFound('Bulk order not found')
    return row
  }

  async function linesOf(batchId: number) {
    const rows = await q<Record<string, any>>(
      `SELECT id, recipient_number, network, package_name, data_size_mb, amount_pesewas, payment_status, delivery_status, delivery_reference, delivery_error
         FROM orders_view WHERE batch_id = :id ORDER BY id`,
      { id: batchId }
    )
    return rows.map(presentBatchLine)
  }

  const viewOf = async (row: BatchRow) => (await batchesWith([row]))[0]!

  return {
    template: () => TEMPLATE_CSV,

    preview: async (raw: unknown, ctx: Ctx) => preview(await sourceOf(raw), agentOf(ctx)),

    /**
     * Pays the batch from the wallet, or starts its one mobile money payment (`pay: 'momo'`); a line
     * still refused, an unticked duplicate or a short balance writes nothing.
     */
    async accept(raw: unknown, ctx: Ctx): Promise<{ batch: BatchView; payment?: PaymentView }> {
      const actor = agentOf(ctx)
      const { id, payment } = await accept(await sourceOf(raw), actor, ctx, 'web')
      return { batch: await viewOf(await ownBatch(id, actor.agent.id)), ...(payment ? { payment } : {}) }
    },

    /** The reseller API's batch: lines as JSON, `andThen` records its Idempotency-Key in the batch's transaction. */
    async acceptApi(
      raw: unknown,
      actor: Actor & { agent: NonNullable<Actor['agent']> },
      andThen: (batchId: number, t: Transaction) => Promise<void>
    ): Promise<number> {
      return (await accept(apiSourceOf(raw), actor, { user: actor }, 'api', andThen)).id
    },

    async mine(raw: unknown, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Bulk orders')
      const { value, error } = listSchema.validate(raw ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const rows = await q<BatchRow>('SELECT * FROM order_batches WHERE agent_id = :agentId ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset', {
        agentId: agent.id,
        limit: value.limit,
        offset: (value.page - 1) * value.limit
      })
      const [n] = await q<{ n: number }>('SELECT count(*)::int AS n FROM order_batches WHERE agent_id = :agentId', { agentId: agent.id })
      return {
        batches: await batchesWith(rows),
        pagination: { page: value.page, limit: value.limit, total: n!.n, totalPages: Math.max(1, Math.ceil(n!.n / value.limit)) }
      }
    },

    /** A batch with its lines: its agent's, or any for an admin. */
    async get(idRaw: unknown, ctx: Ctx) {
      const row = await ownBatch(idRaw, ctx.user?.role === 'ADMIN' ? null : requireActiveAgent(ctx, 'Bulk orders').id)
      return { batch: await viewOf(row), lines: await linesOf(row.id) }
    },

    /** The batch page's poll: the counts only. */
    async status(idRaw: unknown, ctx: Ctx): Promise<BatchView> {
      return viewOf(await ownBatch(idRaw, requireActiveAgent(ctx, 'Bulk orders').id))
    },

    /** For the API: the caller's batch (another agent's reads as missing). */
    async forAgent(idRaw: unknown, agentId: number) {
      const row = await ownBatch(idRaw, agentId)
      return { batch: await viewOf(row), lines: await linesOf(row.id) }
    },

    /** The failed lines written as lines again, for a new batch (their money went back to the wallet). */
    async failedText(idRaw: unknown, ctx: Ctx): Promise<string> {
      const row = await ownBatch(idRaw, requireActiveAgent(ctx, 'Bulk orders').id)
      const rows = await q<{ recipient_number: string; network: string; package_id: number }>(
        `SELECT recipient_number, network, package_id FROM orders_view WHERE batch_id = :id AND delivery_status = 'FAILED' ORDER BY id`,
        { id: row.id }
      )
      return rows.map((r) => `${r.recipient_number},${r.network},${r.package_id}`).join('\n')
    },

    /** Admin: every batch, newest first, with its agent and progress. */
    async adminList(raw: unknown) {
      const { value, error } = listSchema.validate(raw ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const rows = await q<BatchRow>(
        `SELECT b.*, a.name AS agent_name, a.phone AS agent_phone FROM order_batches b JOIN agents a ON a.id = b.agent_id
          ORDER BY b.created_at DESC, b.id DESC LIMIT :limit OFFSET :offset`,
        { limit: value.limit, offset: (value.page - 1) * value.limit }
      )
      const [n] = await q<{ n: number }>('SELECT count(*)::int AS n FROM order_batches', {})
      return {
        batches: await batchesWith(rows),
        pagination: { page: value.page, limit: value.limit, total: n!.n, totalPages: Math.max(1, Math.ceil(n!.n / value.limit)) }
      }
    },

    /**
     * In the transaction that settled a batch's mobile money payment: paid, the money is in the wallet
     * already and pays the lines from it (the batch row locked, so it happens once whoever settles);
     * failed or expired, the batch is cancelled and nothing is written. A batch no longer waiting
     * (cancelled before the money came) is left alone: the money stays in the wallet.
     */
    async onPayment(transactionId: string, paid: boolean, ctx: Ctx & { transaction: Transaction }): Promise<void> {
      const t = ctx.transaction
      const [row] = await q<BatchRow & { user_id: number | null; pending_lines: StoredLine[] }>(
        `SELECT * FROM order_batches WHERE payment_transaction_id = :tid AND status = 'AWAITING_PAYMENT' FOR UPDATE`,
        { tid: transactionId },
        t
      )
      if (!row) return
      if (paid) {
        const [user] = await q<{ email: string | null }>('SELECT email FROM users WHERE id = :id', { id: row.user_id }, t)
        const s = await settings.get({ transaction: t })
        await payLines(
          deps,
          { id: row.id, channel: row.channel, notifySms: row.notify_sms, from: 'momo' },
          { agentId: row.agent_id, userId: row.user_id, email: user?.email ?? null },
          row.pending_lines,
          s,
          ctx
        )
      }
      await q(
        `UPDATE order_batches SET status = :status, pending_lines = NULL WHERE id = :id RETURNING id`,
        { id: row.id, status: paid ? 'PAID' : 'CANCELLED' },
        t
      )
    },

    /**
     * An admin refunding a batch's mobile money payment (ADR 0045): once the lines were written, that
     * money paid them through the wallet, so the refund is refused and points to the lines' own refunds
     * (each goes back to the wallet). A batch cancelled before its money came left it in the wallet,
     * where the refund takes it back like a top-up's.
     */
    async onPaymentRefunding(transactionId: string, t: Transaction): Promise<void> {
      const [row] = await q<BatchRow>(`SELECT * FROM order_batches WHERE payment_transaction_id = :tid FOR UPDATE`, { tid: transactionId }, t)
      if (row?.status === 'PAID')
        throw conflict(
          `This payment paid bulk order #${row.id}: its lines are orders paid from the wallet. Refund the lines not delivered one by one (Orders, batch #${row.id}); each goes back to the wallet.`
        )
    },

    /**
     * In the transaction of a line's final delivery change: when it was the batch's last open line,
     * the batch is marked completed and its agent's software told (batch.completed), once. The batch
     * row is locked first, so two lines ending at once are counted one after the other.
     */
    async onLineEnded(batchId: number, t: Transaction): Promise<void> {
      const [row] = await q<BatchRow>('SELECT * FROM order_batches WHERE id = :id AND completed_at IS NULL FOR UPDATE', { id: batchId }, t)
      if (!row) return
      const [open] = await q<{ n: number }>(
        `SELECT count(*)::int AS n FROM orders_view WHERE batch_id = :id AND delivery_status NOT IN ('DELIVERED','MANUAL','FAILED')`,
        { id: batchId },
        t
      )
      if (open!.n > 0) return
      const [done] = await q<BatchRow>('UPDATE order_batches SET completed_at = now() WHERE id = :id RETURNING *', { id: batchId }, t)
      const [counts] = await q<BatchCounts & { batch_id: number }>(COUNTS_SQL, { ids: [batchId] }, t)
      await deps.webhooks.onBatchCompleted(done!.agent_id, presentBatch(done!, counts), { transaction: t })
    }
  }
}
