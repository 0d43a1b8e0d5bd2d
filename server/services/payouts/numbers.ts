import type { Sequelize } from 'sequelize'
import { AppError, badRequest, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { parseGhanaMobile } from '../../lib/phone.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { NETWORK_LABELS, type PayoutNumberInput } from './model.ts'
import type { PayoutNumber, PayoutQueries } from './queries.ts'
import type { TransfersProvider } from './transfers.ts'

/**
 * An agent's payout number: one at a time, verified with the gateway (resolve and transfer
 * recipient) before it is kept, replaced or removed with an audit entry.
 */
export function createPayoutNumbers(deps: { sequelize: Sequelize; audit: AuditService; transfers: TransfersProvider; log: Logger; queries: PayoutQueries }) {
  const { sequelize, audit, transfers, log, queries } = deps

  const present = (n: PayoutNumber) => ({
    id: n.id,
    network: n.network,
    networkLabel: NETWORK_LABELS[n.network],
    phone: n.phone,
    accountName: n.resolvedName ?? n.accountName,
    verifiedAt: new Date(n.verifiedAt).toISOString()
  })

  return {
    active: queries.activeNumber,
    present,
    /** Verifies the number with the gateway (resolve + transfer recipient) and makes it the agent's payout number. */
    async add(v: PayoutNumberInput, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Payouts')
      const parsed = parseGhanaMobile(v.phone)
      if (!parsed.ok) throw badRequest(parsed.error)
      const answer = await transfers.verifyNumber({ network: v.network, phone: parsed.local, accountName: v.accountName })
      if (answer.kind === 'unclear') {
        // Stryker disable next-line ObjectLiteral,CallExpression: a log line (its fields, the call itself), left out like the texts
        log.warn({ reason: answer.reason }, 'payout number verification unclear')
        throw new AppError(503, 'We could not reach the payment gateway to verify this number. Please try again in a minute.')
      }
      if (answer.kind === 'refused') throw badRequest(`This number could not be verified: ${answer.message}`)
      return sequelize.transaction(async (t) => {
        // Adds of one agent take turns: without this, two at once both find no number to replace and
        // the second insert breaks the one-active-number index. NO KEY UPDATE leaves rows that merely
        // reference the agent (orders, ledger entries) free to be written meanwhile.
        await queries.lockAgent(agent.id, t)
        const old = await queries.removeActiveNumber(agent.id, t)
        const n = await queries.insertNumber(
          {
            agentId: agent.id,
            network: v.network,
            phone: parsed.local,
            accountName: v.accountName,
            resolvedName: answer.resolvedName,
            provider: transfers.name,
            bankCode: answer.bankCode,
            recipientCode: answer.recipientCode
          },
          t
        )
        await audit.record(
          {
            action: 'PAYOUT_NUMBER_ADDED',
            resource: 'AGENT',
            resourceId: agent.id,
            severity: 'HIGH',
            details: {
              network: v.network,
              phone: parsed.local,
              accountName: n.resolvedName ?? n.accountName,
              replaced: old ? `${old.network} ${old.phone}` : null
            }
          },
          { ...ctx, transaction: t }
        )
        return present(n)
      })
    },

    async remove(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Payouts')
      return sequelize.transaction(async (t) => {
        const old = await queries.removeActiveNumber(agent.id, t)
        if (!old) throw notFound('No payout number to remove')
        await audit.record(
          { action: 'PAYOUT_NUMBER_REMOVED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { network: old.network, phone: old.phone } },
          { ...ctx, transaction: t }
        )
        return { removed: true }
      })
    }
  }
}
