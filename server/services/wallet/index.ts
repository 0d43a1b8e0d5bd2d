import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, forbidden, notFound } from '../../lib/errors.ts'
import { ghsFixed, toGhs, toPesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PaymentsService, PaymentView } from '../payments/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { balanceOf, post } from './ledger.ts'
import { walletOrderPayment } from './pay.ts'
import { createWalletQueries, type EntryFilter, type EntryRow, type EntryType } from './queries.ts'
import { refundOrderToWallet } from './refund-handler.ts'

export { ENTRY_TYPES } from './queries.ts'

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

/** A statement's page of entries, checked at the edge (routes/wallet/schema.ts). */
export type StatementInput = EntryFilter & { page: number; limit: number }

/** A top-up the agent asks for, checked at the edge; the amount in GHS. */
export interface TopupInput {
  amount: number
  payerPhone?: string | null
  payerNetwork?: string | null
  email?: string | null
  method?: 'momo' | 'card'
}

/** An admin's credit or debit, checked at the edge; the amount in GHS. */
export interface AdjustInput {
  amount: number
  direction: 'CREDIT' | 'DEBIT'
  reason: string
}

export type { WrittenPayment } from './pay.ts'
export type { OrderPaymentCtes } from './ledger.ts'

export type WalletService = ReturnType<typeof createWalletService>

/** The agent wallet (ADR 0014): balance, statement, top-up, paying orders, refunds, admin adjustments. */
export function createWalletService(deps: { sequelize: Sequelize; models: Models; settings: SettingsService; audit: AuditService; payments: PaymentsService }) {
  const { sequelize, audit, payments } = deps
  const queries = createWalletQueries(sequelize)
  const filterOf = ({ type, from, to }: StatementInput): EntryFilter => ({ type, from, to })

  async function statementOf(agentId: number, input: StatementInput) {
    const { page, limit } = input
    const total = await queries.countEntries(agentId, filterOf(input))
    const rows = await queries.entries(agentId, filterOf(input), { limit, offset: (page - 1) * limit })
    return {
      balance: toGhs(await balanceOf(sequelize, agentId))!,
      entries: rows.map(presentEntry),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) }
    }
  }

  async function allEntries(agentId: number, input: StatementInput): Promise<EntryView[]> {
    const rows = await queries.entries(agentId, filterOf(input), { limit: 100000, offset: 0 })
    return rows.map(presentEntry)
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

    async statement(input: StatementInput, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      return statementOf(agent.id, input)
    },

    async statementEntries(input: StatementInput, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
      return allEntries(agent.id, input)
    },

    /** Admin: any agent's statement. */
    async agentStatement(agentId: number, input: StatementInput) {
      const agent = await queries.agent(agentId)
      if (!agent) throw notFound('Agent not found')
      return { agent, ...(await statementOf(agent.id, input)) }
    },

    /**
     * Starts a top-up through the one payments service (purpose wallet_topup); the wallet is credited
     * by settlement, in its transaction, once.
     */
    async requestTopup(value: TopupInput & { callbackUrl: string | null }, ctx: Ctx): Promise<PaymentView> {
      const agent = requireActiveAgent(ctx, 'The wallet and its top-ups')
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
          callbackUrl: value.callbackUrl
        },
        ctx
      )
    },

    /** Used by orders.placeOrder inside the order's transaction: the payment and debit written by the order's statement, then settled. */
    orderPayment: walletOrderPayment(deps),

    /**
     * Credits a wallet-paid order back, once (unique ledger entry per order and type): for refunds and
     * for deliveries that failed for good. An order not paid from the wallet is left alone.
     */
    refundOrder: (orderId: number, reason: string, ctx: Ctx = {}) => refundOrderToWallet(deps, orderId, reason, ctx),

    /** Admin: credit or debit with a required reason, audited WALLET_ADJUSTED in the same transaction. */
    async adjust(agentId: number, value: AdjustInput, ctx: Ctx) {
      if (!(await queries.agent(agentId))) throw notFound('Agent not found')
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
      const rows = await queries.balances()
      return Object.fromEntries(rows.map((r) => [String(r.agentId), toGhs(r.balancePesewas)!]))
    },

    /** What the shop owes agents in total (admin overview). */
    async liability(): Promise<{ total: number; wallets: number }> {
      const { totalPesewas, wallets } = await queries.liability()
      return { total: toGhs(totalPesewas)!, wallets }
    }
  }
}
