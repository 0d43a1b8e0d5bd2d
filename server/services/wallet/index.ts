import Joi from 'joi'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, forbidden, notFound } from '../../lib/errors.ts'
import { ghsFixed, toGhs, toPesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PaymentsService, PaymentView } from '../payments/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import { balanceOf, ENTRY_TYPES, post, toEntry, type EntryRow, type EntryType, type WalletEntryRecord } from './ledger.ts'
import { payOrderFromWallet, type WalletOrder } from './pay.ts'
import { refundOrderToWallet } from './refund-handler.ts'

export interface EntryView {
  id: number
  type: EntryType
  amount: number
  balanceAfter: number
  reason: string
  orderId: number | null
  transactionId: string | null
  createdAt: string
}

export const presentEntry = (e: EntryRow): EntryView => ({
  id: e.id,
  type: e.type,
  amount: toGhs(e.amountPesewas)!,
  balanceAfter: toGhs(e.balanceAfterPesewas)!,
  reason: e.reason,
  orderId: e.orderId,
  transactionId: e.paymentTransactionId,
  createdAt: e.createdAt.toISOString()
})

const statementSchema = Joi.object({
  type: Joi.string()
    .valid(...ENTRY_TYPES)
    .allow('')
    .messages({ '*': 'Type must be TOPUP, ORDER, REFUND or ADJUSTMENT' }),
  from: Joi.date().iso().allow('').messages({ '*': 'From must be a date (YYYY-MM-DD)' }),
  to: Joi.date().iso().allow('').messages({ '*': 'To must be a date (YYYY-MM-DD)' }),
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })

const topupSchema = Joi.object({
  amount: Joi.number().positive().precision(2).required().messages({ '*': 'Enter an amount in cedis (up to 2 decimals)' }),
  payerPhone: Joi.string().allow('', null),
  payerNetwork: Joi.string().allow('', null),
  email: Joi.string().allow('', null).max(254),
  method: Joi.string().valid('momo', 'card'),
  callbackUrl: Joi.string().uri().allow(null)
}).options({ stripUnknown: true })

const adjustSchema = Joi.object({
  amount: Joi.number().positive().precision(2).max(1_000_000).required().messages({ '*': 'Enter an amount in cedis greater than 0 (up to 2 decimals)' }),
  direction: Joi.string().valid('CREDIT', 'DEBIT').required().messages({ '*': 'Choose credit or debit' }),
  reason: Joi.string().trim().min(3).max(300).required().messages({ '*': 'A reason of at least 3 characters is required' })
}).options({ stripUnknown: true })

export type StatementQuery = { type?: string; from?: string; to?: string; page?: number | string; limit?: number | string }

export type WalletService = ReturnType<typeof createWalletService>

/** The agent wallet (ADR 0014): balance, statement, top-up, paying orders, refunds, admin adjustments. */
export function createWalletService(deps: { sequelize: Sequelize; models: Models; settings: SettingsService; audit: AuditService; payments: PaymentsService }) {
  const { sequelize, audit, payments } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  function filters(raw: StatementQuery) {
    const { value, error } = statementSchema.validate(raw ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const where = ['agent_id = :agentId']
    if (value.type) where.push('type = :type')
    if (value.from) where.push('created_at >= :from::date')
    // 'to' is a whole day, inclusive
    if (value.to) where.push(`created_at < :to::date + interval '1 day'`)
    const day = (d: unknown) => (d ? new Date(d as string).toISOString().slice(0, 10) : null)
    return {
      where: where.join(' AND '),
      params: { type: value.type || null, from: day(value.from), to: day(value.to) },
      page: value.page as number,
      limit: value.limit as number
    }
  }

  async function statementOf(agentId: number, raw: StatementQuery) {
    const f = filters(raw)
    const params = { ...f.params, agentId }
    const [count] = await q<{ n: string }>(`SELECT count(*) AS n FROM wallet_entries WHERE ${f.where}`, params)
    const rows = await q<WalletEntryRecord>(`SELECT * FROM wallet_entries WHERE ${f.where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, {
      ...params,
      limit: f.limit,
      offset: (f.page - 1) * f.limit
    })
    const total = Number(count!.n)
    return {
      balance: toGhs(await balanceOf(sequelize, agentId))!,
      entries: rows.map((r) => presentEntry(toEntry(r))),
      pagination: { page: f.page, limit: f.limit, total, totalPages: Math.max(1, Math.ceil(total / f.limit)) }
    }
  }

  async function allEntries(agentId: number, raw: StatementQuery): Promise<EntryView[]> {
    const f = filters(raw)
    const rows = await q<WalletEntryRecord>(`SELECT * FROM wallet_entries WHERE ${f.where} ORDER BY created_at DESC, id DESC LIMIT 100000`, {
      ...f.params,
      agentId
    })
    return rows.map((r) => presentEntry(toEntry(r)))
  }

  async function limits() {
    const s = await deps.settings.get()
    return { min: s.walletTopupMin, max: s.walletTopupMax }
  }

  return {
    balancePesewas: (agentId: number, t?: Transaction) => balanceOf(sequelize, agentId, t),
    limits,

    /** The signed-in agent's balance and top-up limits (the dashboard and wallet page). */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      return { balance: toGhs(await balanceOf(sequelize, agent.id))!, limits: await limits() }
    },

    async statement(raw: StatementQuery, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      return statementOf(agent.id, raw)
    },

    async statementEntries(raw: StatementQuery, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      return allEntries(agent.id, raw)
    },

    /** Admin: any agent's statement. */
    async agentStatement(agentId: number, raw: StatementQuery) {
      const [agent] = await q<{ id: number; name: string; phone: string }>('SELECT id, name, phone FROM agents WHERE id = :id', { id: agentId })
      if (!agent) throw notFound('Agent not found')
      return { agent, ...(await statementOf(agent.id, raw)) }
    },

    /**
     * Starts a top-up through the one payments service (purpose wallet_topup); the wallet is credited
     * by settlement, in its transaction, once.
     */
    async requestTopup(raw: unknown, ctx: Ctx): Promise<PaymentView> {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      const { value, error } = topupSchema.validate(raw ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const { min, max } = await limits()
      if (value.amount < min || value.amount > max) throw badRequest(`Top-up amount must be between GH₵${ghsFixed(min)} and GH₵${ghsFixed(max)}`)
      if (!(await deps.settings.get()).platformOpen) throw forbidden('Purchases are temporarily disabled')
      return payments.request(
        {
          purpose: 'wallet_topup',
          amountPesewas: toPesewas(value.amount),
          payerPhone: value.payerPhone,
          payerNetwork: value.payerNetwork,
          email: value.email,
          agentId: agent.id,
          userId: ctx.user!.id,
          method: value.method,
          callbackUrl: value.callbackUrl ?? null
        },
        ctx
      )
    },

    /** Used by orders.placeOrder inside the order's transaction. */
    payOrder: (order: WalletOrder, ctx: Ctx & { transaction: Transaction }, settings: Settings) => payOrderFromWallet(deps, order, ctx, settings),

    /**
     * Credits a wallet-paid order back, once (unique ledger entry per order and type): for refunds and
     * for deliveries that failed for good. An order not paid from the wallet is left alone.
     */
    refundOrder: (orderId: number, reason: string, ctx: Ctx = {}) => refundOrderToWallet(deps, orderId, reason, ctx),

    /** Admin: credit or debit with a required reason, audited WALLET_ADJUSTED in the same transaction. */
    async adjust(agentId: number, raw: unknown, ctx: Ctx) {
      const { value, error } = adjustSchema.validate(raw ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const [agent] = await q<{ id: number }>('SELECT id FROM agents WHERE id = :id', { id: agentId })
      if (!agent) throw notFound('Agent not found')
      const signed = (value.direction === 'DEBIT' ? -1 : 1) * toPesewas(value.amount)
      return sequelize.transaction(async (t) => {
        const { entry, balancePesewas } = await post(
          sequelize,
          { agentId, type: 'ADJUSTMENT', amountPesewas: signed, reason: value.reason, actorUserId: ctx.user?.id ?? null },
          t
        )
        await audit.record(
          {
            action: 'WALLET_ADJUSTED',
            resource: 'AGENT',
            resourceId: agentId,
            severity: 'HIGH',
            details: { direction: value.direction, amount: value.amount, reason: value.reason, balance: toGhs(balancePesewas), entryId: entry?.id }
          },
          { ...ctx, transaction: t }
        )
        return { balance: toGhs(balancePesewas)!, entry: entry ? presentEntry(entry) : null }
      })
    },

    /** Admin agents list: every wallet's balance in GHS, by agent id. */
    async allBalances(): Promise<Record<string, number>> {
      const rows = await q<{ agent_id: number; balance_pesewas: string }>('SELECT agent_id, balance_pesewas FROM wallets', {})
      return Object.fromEntries(rows.map((r) => [String(r.agent_id), toGhs(Number(r.balance_pesewas))!]))
    },

    /** What the shop owes agents in total (admin overview). */
    async liability(): Promise<{ total: number; wallets: number }> {
      const [row] = await q<{ total: string | null; n: string }>(
        'SELECT sum(balance_pesewas) AS total, count(*) FILTER (WHERE balance_pesewas > 0) AS n FROM wallets',
        {}
      )
      return { total: toGhs(Number(row?.total ?? 0))!, wallets: Number(row?.n ?? 0) }
    }
  }
}
