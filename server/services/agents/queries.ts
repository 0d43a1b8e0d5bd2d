import { Op, type Sequelize, type Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { AgentRow, UserRow } from '../../../models/rows.ts'
import { phoneVariants } from '../../lib/phone.ts'

// The agents capability's reads and writes of its own rows, typed (camelCase, as the models name them).

export type AgentWithUser = AgentRow & { user?: UserRow }

/** Fee states in which an attempt may still turn into money. */
export const PENDING = ['PENDING', 'IN_PROGRESS']

export function createAgentQueries(sequelize: Sequelize, models: Models) {
  const withUser = { include: [{ model: models.User, as: 'user' }] }
  const plain = (row: { get(o: { plain: true }): unknown }) => row.get({ plain: true }) as AgentWithUser

  return {
    // Plain rows, no model instances: every agent page reads the agent's own profile on each request (ADR 0043).
    withUser: async (agentId: number): Promise<AgentWithUser | null> =>
      ((await models.Agent.unscoped().findByPk(agentId, { ...withUser, raw: true, nest: true })) as AgentWithUser | null) ?? null,
    allWithUser: async (): Promise<AgentWithUser[]> =>
      (
        await models.Agent.unscoped().findAll({
          ...withUser,
          order: [
            ['createdAt', 'DESC'],
            ['id', 'DESC']
          ]
        })
      ).map(plain),
    /** Is the e-mail (any case) or the phone (either spelling) taken already? */
    emailTaken: async (email: string) => !!(await models.User.findOne({ where: sequelize.where(sequelize.fn('lower', sequelize.col('email')), email) })),
    phoneTaken: async (phone: string) => !!(await models.Agent.findOne({ where: { phone: { [Op.in]: phoneVariants(phone) } } })),
    create: async (
      a: { userId: number; name: string; phone: string; paymentStatus: string | null; parentAgentId: number | null },
      transaction: Transaction
    ): Promise<number> => (await models.Agent.create({ ...a, approved: false, paymentTransactionId: null }, { transaction })).get('id') as number,
    /** The agent row under a row lock, for a change decided on what it holds. */
    lock: (agentId: number, transaction: Transaction) => models.Agent.findByPk(agentId, { transaction, lock: transaction.LOCK.UPDATE }),
    feePayment: async (transactionId: string, transaction: Transaction) => {
      const p = await models.Payment.findOne({ where: { transactionId }, transaction })
      return p ? { status: String(p.get('status')), createdAt: p.get('createdAt') as Date } : null
    },
    /** Mirrors the gateway's word on an attempt still current, never stepping back from SUCCESS. */
    setFeeStatus: (agentId: number, transactionId: string, paymentStatus: string) =>
      models.Agent.update({ paymentStatus }, { where: { id: agentId, paymentTransactionId: transactionId, paymentStatus: { [Op.ne]: 'SUCCESS' } } }),
    /** An attempt the gateway refused is FAILED, unless something newer moved the agent on. */
    failFeeAttempt: (agentId: number, transactionId: string) =>
      models.Agent.update({ paymentStatus: 'FAILED' }, { where: { id: agentId, paymentTransactionId: transactionId, paymentStatus: { [Op.in]: PENDING } } }),
    setPin: (agentId: number, pinHash: string) => models.Agent.update({ pinHash, pinFailedAttempts: 0, pinLockedUntil: null }, { where: { id: agentId } })
  }
}

export type AgentQueries = ReturnType<typeof createAgentQueries>
