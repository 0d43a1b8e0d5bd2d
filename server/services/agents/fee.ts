import crypto from 'node:crypto'
import type { Sequelize } from 'sequelize'
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import { normalizePhone } from '../../lib/phone.ts'
import type { NetworkName } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { GATEWAY_CARD, type SettingsService } from '../settings/index.ts'
import { PENDING, type AgentQueries, type AgentWithUser } from './queries.ts'
import { present, type AgentView } from './view.ts'

/** A fee request younger than this that is still pending blocks a second one (double clicks, two tabs). */
export const FEE_REQUEST_COOLDOWN_SECONDS = 60

/** What this service needs from the payments service: the fee's payment and its status (built before agents). */
export interface FeePayments {
  request(
    input: {
      purpose: 'agent_fee'
      amountPesewas: number
      transactionId?: string
      payerPhone?: string | null
      payerNetwork?: string | null
      email?: string | null
      agentId?: number
      userId?: number
    },
    ctx: Ctx
  ): Promise<{
    transactionId: string
    paymentStatus: string
    extTransactionId?: string | null
    message?: string | null
    gateway?: string
    authorizationUrl?: string | null
  }>
  status(transactionId: string, ctx: Ctx): Promise<{ paymentStatus: string; message?: string | null; extTransactionId?: string | null }>
}

/** The payer's wallet for a mobile-money fee (checked at the edge; a card payment needs neither). */
export interface FeeRequestInput {
  phone_number?: string
  network?: NetworkName
}

/** Client-style transaction id: a random integer of 15 digits (spec section 5). */
function newTransactionId(): string {
  return String(crypto.randomInt(1, 10)) + String(crypto.randomInt(0, 1e14)).padStart(14, '0')
}

/** The registration fee: its amount, its payment through payments (which settles it exactly once), its status. */
export function createAgentFees(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  payments: FeePayments
  queries: AgentQueries
  view: (agentId: number) => Promise<AgentView>
  loadFor: (agentId: number, ctx: Ctx, adminOk: boolean) => Promise<AgentWithUser>
}) {
  const { sequelize, audit, settings, payments, queries, view, loadFor } = deps

  /** With no fee configured the fee step is satisfied at once; the audit still says how. */
  const recordNoFee = (agentId: number, ctx: Ctx) =>
    audit.record(
      {
        action: 'PAYMENT_SUCCESS',
        resource: 'AGENT',
        resourceId: agentId,
        details: { purpose: 'agent_fee', amount: 0, reason: 'no registration fee configured' }
      },
      ctx
    )

  async function feePesewas(): Promise<number> {
    return toPesewas((await settings.getFresh()).agentRegistrationFee || 0)
  }

  /** Asks the gateway (through payments, which settles exactly once) and answers the agent's fee status. */
  async function feePaymentStatus(agentId: number, ctx: Ctx) {
    const a = await loadFor(agentId, ctx, true)
    const txn = a.paymentTransactionId
    let message: string | null = null
    let extTransactionId: string | null = null
    if (txn && a.paymentStatus !== 'SUCCESS') {
      let res: Awaited<ReturnType<FeePayments['status']>>
      try {
        res = await payments.status(txn, ctx)
      } catch (err) {
        // An attempt the gateway never saw (refused before it started) has nothing to ask about.
        if (err instanceof AppError && err.status === 404)
          return { paymentStatus: a.paymentStatus ?? null, transactionId: txn, message: null, extTransactionId: null, agent: present(a) }
        throw err
      }
      message = res.message ?? null
      extTransactionId = res.extTransactionId ?? null
      const st = String(res.paymentStatus ?? '').toUpperCase()
      // Mirrors the gateway's answer in case the settlement did not touch the agent row (it normally does).
      if (['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED'].includes(st)) await queries.setFeeStatus(a.id, txn, st)
    }
    const agent = await view(a.id)
    return { paymentStatus: agent.paymentStatus, transactionId: agent.paymentTransactionId, message, extTransactionId, agent }
  }

  /** Starts (or retries, with a new transaction id) the registration-fee payment of the signed-in agent. */
  async function requestFeePayment(agentId: number, value: FeeRequestInput, ctx: Ctx) {
    if (ctx.user?.agent?.id !== agentId) throw notFound('Agent not found')
    const s = await settings.getFresh()
    const card = s.paymentGateway === GATEWAY_CARD
    const fee = toPesewas(s.agentRegistrationFee || 0)
    if (!card && fee > 0) {
      if (!value.phone_number) throw badRequest('Please enter a valid phone number')
      if (!value.network) throw badRequest('Please select a mobile network')
    }
    const transactionId = newTransactionId()

    const outcome = await sequelize.transaction(async (transaction) => {
      const a = await queries.lock(agentId, transaction)
      if (!a) throw notFound('Agent not found')
      if (a.get('paymentStatus') === 'SUCCESS') throw conflict('Your registration fee has already been paid.')
      const current = a.get('paymentTransactionId') as string | null
      if (current && PENDING.includes(a.get('paymentStatus') as string)) {
        const p = await queries.feePayment(current, transaction)
        // No payment row yet: another click claimed it a moment ago and is still talking to the gateway.
        const since = p ? p.createdAt : (a.get('updatedAt') as Date)
        const age = (Date.now() - new Date(since).getTime()) / 1000
        if ((!p || PENDING.includes(p.status)) && age < FEE_REQUEST_COOLDOWN_SECONDS) {
          throw conflict('A payment request is already waiting for approval. Complete it on your phone, then tap I Have Paid.')
        }
      }
      if (fee === 0) {
        await a.update({ paymentStatus: 'SUCCESS', paymentTransactionId: null }, { transaction })
        return 'free' as const
      }
      // Claim the attempt under the row lock, so two clicks cannot start two charges.
      await a.update({ paymentStatus: 'PENDING', paymentTransactionId: transactionId }, { transaction })
      return 'claimed' as const
    })

    if (outcome === 'free') {
      await recordNoFee(agentId, ctx)
      const agent = await view(agentId)
      return {
        transactionId: null,
        paymentStatus: 'SUCCESS',
        extTransactionId: null,
        message: 'No registration fee is due. Your account is awaiting approval.',
        gateway: 'none',
        authorizationUrl: null,
        amount: 0,
        agent
      }
    }

    let res: Awaited<ReturnType<FeePayments['request']>>
    try {
      res = await payments.request(
        {
          purpose: 'agent_fee',
          amountPesewas: fee,
          transactionId,
          payerPhone: card ? null : normalizePhone(value.phone_number!),
          payerNetwork: card ? null : value.network,
          email: card ? ctx.user!.email : null,
          agentId,
          userId: ctx.user!.id
        },
        ctx
      )
    } catch (err) {
      await queries.failFeeAttempt(agentId, transactionId)
      if (err instanceof AppError) throw new AppError(err.status, err.message, { ...(err.extra ?? {}), canRetry: true })
      ctx.log?.error({ err, agentId }, 'agent fee payment request failed')
      throw new AppError(502, 'Payment request failed', { canRetry: true })
    }
    const status = String(res.paymentStatus ?? 'PENDING').toUpperCase()
    // Settlement may already have moved the agent on (an instant approval); never step back from SUCCESS.
    await queries.setFeeStatus(agentId, transactionId, status)
    const agent = await view(agentId)
    return {
      ...res,
      transactionId: res.transactionId ?? transactionId,
      paymentStatus: agent.paymentStatus === 'SUCCESS' ? 'SUCCESS' : status,
      amount: toGhs(fee),
      agent
    }
  }

  return { feePesewas, feePaymentStatus, requestFeePayment, recordNoFee }
}
