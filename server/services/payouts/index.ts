import type { Sequelize, Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { badRequest, forbidden, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { formatCedis, toGhs, toPesewas, type Pesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import type { Attention } from '../payments/attention.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createPayoutAdmin } from './admin.ts'
import { createPayoutLifecycle } from './lifecycle.ts'
import { amountPesewasSchema, validate, type PayoutView, type TransferSimInput } from './model.ts'
import { createPayoutNumbers } from './numbers.ts'
import { pickTransfers } from './provider.ts'
import { createPayoutQueries } from './queries.ts'
import type { TransfersProvider } from './transfers.ts'
import { presentPayout } from './view.ts'

export { PAYOUT_SEND_TASK, PAYOUT_CHECK_TASK, PAYOUT_SWEEP_TASK, type PayoutView } from './model.ts'

export interface PayoutsDeps {
  sequelize: Sequelize
  env: Env
  log: Logger
  audit: AuditService
  settings: SettingsService
  earnings: EarningsService
  queue: Queue
  attention: Attention
  /** Tests may hand in a provider; otherwise Paystack when its key is set, else the simulator. */
  transfers?: TransfersProvider
}

/**
 * Payouts of shop earnings to the agent's verified mobile-money number (ADR 0020 '## Payouts').
 * The money is held (PAYOUT entry) in the transaction that creates the payout and queues its send; the
 * transfer goes out from a queued job under an id-derived reference; only the gateway's word (webhook or
 * verify) settles it; failure, reversal or rejection returns it (PAYOUT_RETURN) once. Every move is one
 * transaction with its audit entry. The life of one payout is lifecycle.ts, the back office's hand admin.ts.
 */
export function createPayoutsService(deps: PayoutsDeps) {
  const { sequelize, audit, queue, attention, log, env, earnings } = deps
  const { transfers, sim } = pickTransfers(env, deps.transfers)
  const queries = createPayoutQueries(sequelize)
  const numbers = createPayoutNumbers({ sequelize, audit, transfers, log, queries })
  const activeNumber = numbers.active
  const lifecycle = createPayoutLifecycle({ sequelize, env, audit, earnings, queue, attention, transfers, sim, queries })
  const { view } = lifecycle
  const admin = createPayoutAdmin({ sequelize, audit, queries, lifecycle, activeNumber })

  async function payoutSettings(t?: Transaction) {
    const s = await deps.settings.getFresh({ transaction: t })
    return { minimum: s.payoutMinimum, fee: s.payoutFee, approvalAbove: s.payoutApprovalAbove }
  }

  async function requestFor(agentId: number, amountPesewas: Pesewas, channel: 'web' | 'ussd', ctx: Ctx): Promise<PayoutView> {
    const amount = toGhs(amountPesewas)
    return sequelize.transaction(async (t) => {
      const s = await payoutSettings(t)
      if (amountPesewas < toPesewas(s.minimum)) throw badRequest(`The minimum payout is ${formatCedis(s.minimum)}`)
      const number = await activeNumber(agentId, t)
      if (!number) throw badRequest('Add and verify a payout number first')
      const needsApproval = amountPesewas > toPesewas(s.approvalAbove)
      const p = await lifecycle.create({ agentId, amountPesewas, feePesewas: toPesewas(s.fee), numberId: number.id, needsApproval, channel }, ctx, t)
      await audit.record(
        {
          action: 'PAYOUT_REQUESTED',
          resource: 'PAYOUT',
          resourceId: p.id,
          severity: 'MEDIUM',
          details: { agentId, amount, fee: s.fee, network: number.network, phone: number.phone, channel, needsApproval }
        },
        { ...ctx, transaction: t }
      )
      return view(p.id, t)
    })
  }

  return {
    transfers,
    providerName: transfers.name,
    settings: payoutSettings,
    view,
    check: lifecycle.check,
    runSend: lifecycle.runSend,
    sweep: lifecycle.sweep,
    onTransferEvent: lifecycle.onTransferEvent,

    /** The signed-in agent's page: available earnings, rules, the verified number, history. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Payouts')
      const [available, s, n, payouts] = await Promise.all([
        deps.earnings.balancePesewas(agent.id),
        payoutSettings(),
        activeNumber(agent.id),
        queries.listedOfAgent(agent.id, 50).then((rows) => rows.map(presentPayout))
      ])
      return { available: toGhs(available)!, settings: s, number: n ? numbers.present(n) : null, payouts, simulator: !!sim }
    },

    addNumber: numbers.add,
    removeNumber: numbers.remove,

    /** A withdrawal by the signed-in agent (web). */
    // Methods, not arrows: an arrow is made once when the service is built, where a mutation run cannot switch it.
    request(input: { amount: number }, ctx: Ctx) {
      return requestFor(requireActiveAgent(ctx, 'Payouts').id, toPesewas(input.amount), 'web', ctx)
    },
    /** A withdrawal from the USSD menu, after the PIN (the dial's agent, checked by the menu). */
    requestFromUssd(agentId: number, amountPesewas: Pesewas, ctx: Ctx) {
      return requestFor(agentId, validate<{ amount: Pesewas }>(amountPesewasSchema, { amount: amountPesewas }).amount, 'ussd', ctx)
    },
    activeNumber: async (agentId: number) => {
      const n = await activeNumber(agentId)
      return n ? numbers.present(n) : null
    },

    list: admin.list,
    exportRows: admin.exportRows,
    approve: admin.approve,
    reject: admin.reject,
    retry: admin.retry,

    simulatorState() {
      if (!sim) throw notFound('The transfers simulator runs only without a Paystack key')
      return sim.state()
    },
    simulatorControl(input: TransferSimInput, ctx: Ctx) {
      if (!sim) throw notFound('The transfers simulator runs only without a Paystack key')
      if (env.NODE_ENV === 'production' && ctx.user?.role !== 'ADMIN') throw forbidden('The transfers simulator control is for admins')
      return sim.control(input)
    },
    /** The transfers simulator as at start (none without it): for a database emptied under the running app. */
    simulatorReset() {
      sim?.reset()
    }
  }
}
