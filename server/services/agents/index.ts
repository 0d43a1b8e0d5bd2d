import Joi from 'joi'
import { UniqueConstraintError, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { hashPin } from '../../lib/crypto.ts'
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts'
import { normalizePhone } from '../../lib/phone.ts'
import { isActiveAgent } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { AuthService } from '../auth/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { LimitsService } from '../limits/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { inviterOf } from '../sub-agents/invites.ts'
import { createAgentFees, type FeePayments } from './fee.ts'
import { randomPin } from './pin.ts'
import { createAgentQueries, type AgentWithUser } from './queries.ts'
import { present, type AgentView } from './view.ts'

export type { FeePayments, FeeRequestInput } from './fee.ts'
export type { AgentView } from './view.ts'

/** A new agent's registration, as POST /api/agents/register lets it through (trimmed, e-mail lowercased). */
export interface RegisterInput {
  name: string
  phone: string
  email: string
  password: string
  ref?: string | null
}

const idSchema = Joi.number().integer().min(1).max(2_147_483_647).required()
export function parseId(raw: unknown, what = 'agent'): number {
  const { value, error } = idSchema.validate(raw, { convert: true })
  if (error) throw badRequest(`Invalid ${what} id`)
  return value
}

/** Ordering, the orders table and the inbox need an approved agent with a SUCCESS fee payment. */
export function requireActiveAgent(ctx: Ctx, what: string): NonNullable<Actor['agent']> {
  if (!ctx.user) throw unauthorized()
  if (ctx.user.role !== 'AGENT' || !ctx.user.agent) throw forbidden('Only agents can do this')
  if (!isActiveAgent(ctx.user.agent)) {
    throw forbidden(`${what} are available once your registration payment is successful and an admin has approved your account.`)
  }
  return ctx.user.agent
}

/**
 * Agents: registration, approval, the agent's own profile and PIN; the registration fee is fee.ts.
 * Inputs arrive checked by their endpoint's schema (server/http/routes/agents/schema.ts).
 */
export function createAgentsService(deps: {
  sequelize: Sequelize
  models: Models
  audit: AuditService
  auth: AuthService
  settings: SettingsService
  limits: LimitsService
  /** The 'agent approved' SMS (settings.smsAgentApproved), written in the approval's transaction. */
  sms?: Pick<SmsService, 'send'>
  payments: FeePayments
}) {
  const { sequelize, models, audit, auth, settings, limits, payments } = deps
  const queries = createAgentQueries(sequelize, models)

  /** The agent itself, or (when adminOk) an admin. Others get the same 404 as a missing agent. */
  async function loadFor(agentId: number, ctx: Ctx, adminOk: boolean): Promise<AgentWithUser> {
    if (!ctx.user) throw unauthorized()
    const mine = ctx.user.role === 'AGENT' && ctx.user.agent?.id === agentId
    if (!mine && !(adminOk && ctx.user.role === 'ADMIN')) throw notFound('Agent not found')
    const a = await queries.withUser(agentId)
    if (!a) throw notFound('Agent not found')
    return a
  }

  function myAgentId(ctx: Ctx): number {
    if (!ctx.user) throw unauthorized()
    if (ctx.user.role !== 'AGENT' || !ctx.user.agent) throw forbidden('Only agents can do this')
    return ctx.user.agent.id
  }

  async function view(agentId: number) {
    return present((await queries.withUser(agentId))!)
  }

  const fees = createAgentFees({ sequelize, audit, settings, payments, queries, view, loadFor })

  return {
    present,
    feePaymentStatus: fees.feePaymentStatus,
    requestFeePayment: fees.requestFeePayment,
    feePesewas: fees.feePesewas,

    async register(value: RegisterInput, ctx: Ctx): Promise<{ agent: AgentView; message: string }> {
      const phone = normalizePhone(value.phone)
      // Generous per address (one carrier's NAT may carry many people), tight per phone and per e-mail.
      await limits.take(
        { registerPerIp: ctx.ip ?? 'unknown', registerPerPhone: phone, registerPerEmail: String(value.email).toLowerCase() },
        'Too many registrations. Please try again later.'
      )
      if (await queries.emailTaken(value.email)) throw conflict('An account with this email already exists. Please sign in instead.')
      if (await queries.phoneTaken(phone)) throw conflict('An agent with this phone number already exists.')
      // With no fee configured the fee step is satisfied at once (docs/decisions/0004-agent-gating.md).
      const free = (await fees.feePesewas()) === 0
      const parent = value.ref ? await inviterOf(sequelize, value.ref) : null
      if (value.ref && !parent) throw badRequest('This invite link is not valid any more. Ask the agent who sent it for a new one, or register without it.')
      let agentId: number
      try {
        agentId = await sequelize.transaction(async (transaction) => {
          const user = await auth.createUser({ email: value.email, password: value.password, role: 'AGENT', name: value.name, phone }, { ...ctx, transaction })
          const id = await queries.create(
            { userId: user.get('id') as number, name: value.name, phone, paymentStatus: free ? 'SUCCESS' : null, parentAgentId: parent?.id ?? null },
            transaction
          )
          if (parent)
            await audit.record(
              { action: 'SUB_AGENT_JOINED', resource: 'AGENT', resourceId: id, details: { parentAgentId: parent.id } },
              { ...ctx, transaction }
            )
          return id
        })
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict('An account with this email already exists. Please sign in instead.')
        throw err
      }
      if (free) await fees.recordNoFee(agentId, ctx)
      return { agent: await view(agentId), message: 'Registration successful! Please log in to your account to complete payment in your portal.' }
    },

    async get(agentId: number, ctx: Ctx): Promise<AgentView> {
      return present(await loadFor(agentId, ctx, true))
    },

    async me(ctx: Ctx): Promise<AgentView> {
      return view(myAgentId(ctx))
    },

    async list(ctx: Ctx): Promise<AgentView[]> {
      if (ctx.user?.role !== 'ADMIN') throw forbidden('You do not have access to this resource')
      return (await queries.allWithUser()).map(present)
    },

    async setApproved(agentId: number, approved: boolean, ctx: Ctx): Promise<AgentView> {
      if (ctx.user?.role !== 'ADMIN') throw forbidden('You do not have access to this resource')
      const changed = await sequelize.transaction(async (transaction) => {
        const a = await queries.lock(agentId, transaction)
        if (!a) throw notFound('Agent not found')
        if (a.get('paymentStatus') !== 'SUCCESS') {
          throw conflict('The agent can be approved or unapproved only after the registration payment is successful.')
        }
        if (!!a.get('approved') === approved) return false
        await a.update({ approved, approvedAt: approved ? new Date() : null }, { transaction })
        await audit.record(
          {
            action: approved ? 'AGENT_APPROVED' : 'AGENT_UNAPPROVED',
            resource: 'AGENT',
            resourceId: agentId,
            severity: 'MEDIUM',
            details: { approved, agentName: a.get('name'), agentPhone: a.get('phone') }
          },
          { ...ctx, transaction }
        )
        const template = approved ? (await settings.get({ transaction })).smsAgentApproved : ''
        if (template && deps.sms) await deps.sms.send(String(a.get('phone')), template, { transaction })
        return true
      })
      const out = await view(agentId)
      ctx.log?.info({ agentId, approved, changed }, 'agent approval set')
      return out
    },

    async myFeePaymentStatus(ctx: Ctx) {
      return fees.feePaymentStatus(myAgentId(ctx), ctx)
    },

    /**
     * A new random PIN for the signed-in agent: returned once, stored only as an argon2id hash.
     * Checking it (with the per-agent lock) is services.ussd.verifyPin, the one place PINs are verified.
     */
    async resetPin(ctx: Ctx): Promise<{ pin: string }> {
      const agentId = myAgentId(ctx)
      const pin = randomPin()
      await queries.setPin(agentId, await hashPin(pin))
      await audit.record({ action: 'AGENT_PIN_RESET', resource: 'AGENT', resourceId: agentId, severity: 'MEDIUM' }, ctx)
      return { pin }
    }
  }
}
