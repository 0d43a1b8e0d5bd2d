import type { Sequelize, Transaction } from 'sequelize'
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
import { acceptAwaitingPayment, acceptFromWallet, payLines } from './accept.ts'
import type { StoredLine } from './queries-accept.ts'
import { NOTHING_TO_ORDER, TEMPLATE_CSV } from './parse.ts'
import { catalogue, checkLines, presentLines, type CheckedLine } from './preview.ts'
import { createBulkQueries, type Batch } from './queries.ts'
import { apiSourceOf, sourceOf, type Source, type SourceInput } from './source.ts'
import { presentBatch, presentBatchLine, type BatchView } from './view.ts'

export type { SourceInput } from './source.ts'
export type { BatchLineView, BatchView } from './view.ts'

/** A page of a batch list, checked at the edge. */
export interface BulkListInput {
  page: number
  limit: number
}

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
  const queries = createBulkQueries(sequelize)
  const nameOf = (p: PackageRow) => packages.present(p).name

  /**
   * Bulk lines are priced by the one price rule (ADR 0041), for the whole catalogue at once; a
   * sub-agent's line carries its parent's price and margin, as a single order does.
   */
  async function linePrices(actor: Actor, rows: PackageRow[]): Promise<(p: PackageRow) => Quote> {
    const quotes = await deps.pricing.quotes(actor, rows)
    return (p) => quotes.get(p.id)!
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
      await queries.dropAwaiting(batchId)
      throw err
    }
  }

  async function batchesWith(rows: Batch[]): Promise<BatchView[]> {
    if (!rows.length) return []
    const byId = await queries.counts(rows.map((r) => r.id))
    return rows.map((r) => presentBatch(r, byId.get(r.id)))
  }

  async function ownBatch(idRaw: unknown, agentId: number | null): Promise<Batch> {
    const id = Number(idRaw)
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw notFound('Bulk order not found')
    const row = await queries.batch(id, agentId)
    // Another agent's batch reads exactly like a missing one.
    if (!row) throw notFound('Bulk order not found')
    return row
  }

  async function linesOf(batchId: number) {
    return (await queries.lines(batchId)).map(presentBatchLine)
  }

  const offsetOf = (page: BulkListInput) => ({ limit: page.limit, offset: (page.page - 1) * page.limit })
  const listed = async ({ batches, total }: { batches: Batch[]; total: number }, { page, limit }: BulkListInput) => ({
    batches: await batchesWith(batches),
    pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) }
  })

  const viewOf = async (row: Batch) => (await batchesWith([row]))[0]!

  return {
    template: () => TEMPLATE_CSV,

    preview: async (input: SourceInput, ctx: Ctx) => preview(await sourceOf(input), agentOf(ctx)),

    /**
     * Pays the batch from the wallet, or starts its one mobile money payment (`pay: 'momo'`); a line
     * still refused, an unticked duplicate or a short balance writes nothing.
     */
    async accept(input: SourceInput, ctx: Ctx): Promise<{ batch: BatchView; payment?: PaymentView }> {
      const actor = agentOf(ctx)
      const { id, payment } = await accept(await sourceOf(input), actor, ctx, 'web')
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

    async mine(page: BulkListInput, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Bulk orders')
      return listed(await queries.agentBatches(agent.id, offsetOf(page)), page)
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
      const rows = await queries.failedLines(row.id)
      return rows.map((r) => `${r.recipientNumber},${r.network},${r.packageId}`).join('\n')
    },

    /** Admin: every batch, newest first, with its agent and progress. */
    async adminList(page: BulkListInput) {
      return listed(await queries.allBatches(offsetOf(page)), page)
    },

    /**
     * In the transaction that settled a batch's mobile money payment: paid, the money is in the wallet
     * already and pays the lines from it (the batch row locked, so it happens once whoever settles);
     * failed or expired, the batch is cancelled and nothing is written. A batch no longer waiting
     * (cancelled before the money came) is left alone: the money stays in the wallet.
     */
    async onPayment(transactionId: string, paid: boolean, ctx: Ctx & { transaction: Transaction }): Promise<void> {
      const t = ctx.transaction
      const row = await queries.awaitingForUpdate(transactionId, t)
      if (!row) return
      if (paid) {
        const email = await queries.userEmail(row.userId, t)
        const s = await settings.get({ transaction: t })
        await payLines(
          deps,
          { id: row.id, channel: row.channel, notifySms: row.notifySms, from: 'momo' },
          { agentId: row.agentId, userId: row.userId, email },
          row.pendingLines,
          s,
          ctx
        )
      }
      await queries.settle(row.id, paid ? 'PAID' : 'CANCELLED', t)
    },

    /**
     * An admin refunding a batch's mobile money payment (ADR 0045): once the lines were written, that
     * money paid them through the wallet, so the refund is refused and points to the lines' own refunds
     * (each goes back to the wallet). A batch cancelled before its money came left it in the wallet,
     * where the refund takes it back like a top-up's.
     */
    async onPaymentRefunding(transactionId: string, t: Transaction): Promise<void> {
      const row = await queries.byPaymentForUpdate(transactionId, t)
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
      if (!(await queries.openForUpdate(batchId, t))) return
      if ((await queries.openLines(batchId, t)) > 0) return
      const done = await queries.markCompleted(batchId, t)
      const counts = await queries.counts([batchId], t)
      await deps.webhooks.onBatchCompleted(done.agentId, presentBatch(done, counts.get(batchId)), { transaction: t })
    }
  }
}
