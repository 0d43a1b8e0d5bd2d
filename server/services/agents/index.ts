import Joi from 'joi'
import crypto from 'node:crypto'
import { Op, QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { hashPin } from '../../lib/crypto.ts'
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'
import { randomPin } from './pin.ts'
import { inviterOf } from '../sub-agents/invites.ts'
import type { AuditService } from '../audit/index.ts'
import type { AuthService } from '../auth/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { LimitsService } from '../limits/index.ts'
import { isActiveAgent, NETWORKS } from '../../lib/vocabulary.ts'
import { GATEWAY_CARD, type SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'

/** A fee request younger than this that is still pending blocks a second one (double clicks, two tabs). */
export const FEE_REQUEST_COOLDOWN_SECONDS = 60

const PENDING = ['PENDING', 'IN_PROGRESS']

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

const digits = (msg: string) =>
  Joi.string()
    .trim()
    .pattern(/^\d{9,12}$/)
    .messages({ 'string.pattern.base': msg, 'string.base': msg, 'string.empty': msg, 'any.required': msg })

export const registerSchema = Joi.object({
  name: Joi.string().trim().max(120).required().messages({
    'any.required': 'Enter your business/full name',
    'string.empty': 'Enter your business/full name',
    'string.base': 'Enter your business/full name',
    'string.max': 'Name must be at most 120 characters'
  }),
  phone: digits('Enter a valid phone number').required(),
  email: Joi.string()
    .trim()
    .lowercase()
    .max(254)
    .pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)
    .required()
    .messages({
      'any.required': 'Enter a valid email',
      'string.empty': 'Enter a valid email',
      'string.pattern.base': 'Enter a valid email',
      'string.base': 'Enter a valid email',
      'string.max': 'Enter a valid email'
    }),
  password: Joi.string().min(6).max(200).required().messages({
    'any.required': 'Password must be at least 6 characters',
    'string.empty': 'Password must be at least 6 characters',
    'string.min': 'Password must be at least 6 characters',
    'string.base': 'Password must be at least 6 characters',
    'string.max': 'Password must be at most 200 characters'
  }),
  // An invite link's code (/agent/register?ref=...): the new agent becomes that agent's sub-agent.
  ref: Joi.string().trim().allow('', null).max(40).messages({ '*': 'This invite link is not valid' })
}).options({ stripUnknown: true })

export const feeRequestSchema = Joi.object({
  phone_number: digits('Please enter a valid phone number'),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .messages({
      'any.only': 'Please select a mobile network',
      'string.base': 'Please select a mobile network',
      'string.empty': 'Please select a mobile network'
    })
})
  .rename('phoneNumber', 'phone_number', { ignoreUndefined: true })
  .options({ stripUnknown: true })

const idSchema = Joi.number().integer().min(1).max(2_147_483_647).required()
export function parseId(raw: unknown, what = 'agent'): number {
  const { value, error } = idSchema.validate(raw, { convert: true })
  if (error) throw badRequest(`Invalid ${what} id`)
  return value
}

/** Client-style transaction id: a random integer of 15 digits (spec section 5). */
export function newTransactionId(): string {
  return String(crypto.randomInt(1, 10)) + String(crypto.randomInt(0, 1e14)).padStart(14, '0')
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

type Row = Record<string, any>

export interface AgentView {
  id: number
  userId: number
  name: string
  phone: string
  email: string | null
  approved: boolean
  approvedAt: string | null
  paymentStatus: string | null
  paymentTransactionId: string | null
  hasPin: boolean
  /** The agent's tier (null: the first tier) and, for a sub-agent, the agent that invited it (ADR 0041). */
  tierId: number | null
  parentAgentId: number | null
  createdAt: string
  user: { id: number; email: string; phone: string | null; name: string | null; createdAt: string } | null
}

function present(a: Row): AgentView {
  const u = a.user as Row | undefined
  return {
    id: a.id,
    userId: a.userId,
    name: a.name,
    phone: a.phone,
    email: u?.email ?? null,
    approved: !!a.approved,
    approvedAt: a.approvedAt ? new Date(a.approvedAt).toISOString() : null,
    paymentStatus: a.paymentStatus ? String(a.paymentStatus).toUpperCase() : null,
    paymentTransactionId: a.paymentTransactionId ?? null,
    hasPin: !!a.pinHash,
    tierId: a.tierId ?? null,
    parentAgentId: a.parentAgentId ?? null,
    createdAt: new Date(a.createdAt).toISOString(),
    user: u ? { id: u.id, email: u.email, phone: u.phone ?? null, name: u.name ?? null, createdAt: new Date(u.createdAt).toISOString() } : null
  }
}

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

  async function load(agentId: number): Promise<Row | null> {
    // Plain rows, no model instances: every agent page reads the agent's own profile on each request (ADR 0043).
    const row = await models.Agent.unscoped().findByPk(agentId, { include: [{ model: models.User, as: 'user' }], raw: true, nest: true })
    return (row as Row | null) ?? null
  }

  /** The agent itself, or (when adminOk) an admin. Others get the same 404 as a missing agent. */
  async function loadFor(agentId: number, ctx: Ctx, adminOk: boolean): Promise<Row> {
    if (!ctx.user) throw unauthorized()
    const mine = ctx.user.role === 'AGENT' && ctx.user.agent?.id === agentId
    if (!mine && !(adminOk && ctx.user.role === 'ADMIN')) throw notFound('Agent not found')
    const a = await load(agentId)
    if (!a) throw notFound('Agent not found')
    return a
  }

  function myAgentId(ctx: Ctx): number {
    if (!ctx.user) throw unauthorized()
    if (ctx.user.role !== 'AGENT' || !ctx.user.agent) throw forbidden('Only agents can do this')
    return ctx.user.agent.id
  }

  async function feePesewas(): Promise<number> {
    return toPesewas((await settings.getFresh()).agentRegistrationFee || 0)
  }

  async function view(agentId: number) {
    return present((await load(agentId))!)
  }

  /** Asks the gateway (through payments, which settles exactly once) and answers the agent's fee status. */
  async function feePaymentStatus(agentIdRaw: unknown, ctx: Ctx) {
    const a = await loadFor(parseId(agentIdRaw), ctx, true)
    const txn = a.paymentTransactionId as string | null
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
      if (['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED'].includes(st)) {
        await models.Agent.update({ paymentStatus: st }, { where: { id: a.id, paymentTransactionId: txn, paymentStatus: { [Op.ne]: 'SUCCESS' } } })
      }
    }
    const agent = await view(a.id)
    return { paymentStatus: agent.paymentStatus, transactionId: agent.paymentTransactionId, message, extTransactionId, agent }
  }

  return {
    present,
    feePaymentStatus,

    async register(input: unknown, ctx: Ctx): Promise<{ agent: AgentView; message: string }> {
      const { value, error } = registerSchema.validate(input)
      if (error) throw badRequest(error.details[0]!.message)
      const phone = normalizePhone(value.phone)
      // Generous per address (one carrier's NAT may carry many people), tight per phone and per e-mail.
      await limits.take(
        { registerPerIp: ctx.ip ?? 'unknown', registerPerPhone: phone, registerPerEmail: String(value.email).toLowerCase() },
        'Too many registrations. Please try again later.'
      )
      if (await models.User.findOne({ where: sequelize.where(sequelize.fn('lower', sequelize.col('email')), value.email) })) {
        throw conflict('An account with this email already exists. Please sign in instead.')
      }
      if (await models.Agent.findOne({ where: { phone: { [Op.in]: phoneVariants(phone) } } })) {
        throw conflict('An agent with this phone number already exists.')
      }
      // With no fee configured the fee step is satisfied at once (docs/decisions/0004-agent-gating.md).
      const free = (await feePesewas()) === 0
      const parent = value.ref ? await inviterOf(sequelize, value.ref) : null
      if (value.ref && !parent) throw badRequest('This invite link is not valid any more. Ask the agent who sent it for a new one, or register without it.')
      let agentId: number
      try {
        agentId = await sequelize.transaction(async (transaction) => {
          const user = await auth.createUser({ email: value.email, password: value.password, role: 'AGENT', name: value.name, phone }, { ...ctx, transaction })
          const agent = await models.Agent.create(
            {
              userId: user.get('id'),
              name: value.name,
              phone,
              approved: false,
              paymentStatus: free ? 'SUCCESS' : null,
              paymentTransactionId: null,
              parentAgentId: parent?.id ?? null
            },
            { transaction }
          )
          if (parent)
            await audit.record(
              { action: 'SUB_AGENT_JOINED', resource: 'AGENT', resourceId: agent.get('id') as number, details: { parentAgentId: parent.id } },
              { ...ctx, transaction }
            )
          return agent.get('id') as number
        })
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict('An account with this email already exists. Please sign in instead.')
        throw err
      }
      if (free) {
        await audit.record(
          {
            action: 'PAYMENT_SUCCESS',
            resource: 'AGENT',
            resourceId: agentId,
            details: { purpose: 'agent_fee', amount: 0, reason: 'no registration fee configured' }
          },
          ctx
        )
      }
      return { agent: await view(agentId), message: 'Registration successful! Please log in to your account to complete payment in your portal.' }
    },

    async get(agentIdRaw: unknown, ctx: Ctx): Promise<AgentView> {
      return present(await loadFor(parseId(agentIdRaw), ctx, true))
    },

    async me(ctx: Ctx): Promise<AgentView> {
      return view(myAgentId(ctx))
    },

    async list(ctx: Ctx): Promise<AgentView[]> {
      if (ctx.user?.role !== 'ADMIN') throw forbidden('You do not have access to this resource')
      const rows = await models.Agent.unscoped().findAll({
        include: [{ model: models.User, as: 'user' }],
        order: [
          ['createdAt', 'DESC'],
          ['id', 'DESC']
        ]
      })
      return rows.map((r) => present(r.get({ plain: true }) as Row))
    },

    async setApproved(agentIdRaw: unknown, approved: boolean, ctx: Ctx): Promise<AgentView> {
      if (ctx.user?.role !== 'ADMIN') throw forbidden('You do not have access to this resource')
      const agentId = parseId(agentIdRaw)
      const changed = await sequelize.transaction(async (transaction) => {
        const a = await models.Agent.findByPk(agentId, { transaction, lock: transaction.LOCK.UPDATE })
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

    /** Starts (or retries, with a new transaction id) the registration-fee payment of the signed-in agent. */
    async requestFeePayment(agentIdRaw: unknown, input: unknown, ctx: Ctx) {
      const agentId = parseId(agentIdRaw)
      if (myAgentId(ctx) !== agentId) throw notFound('Agent not found')
      const s = await settings.getFresh()
      const card = s.paymentGateway === GATEWAY_CARD
      const { value, error } = feeRequestSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message)
      const fee = toPesewas(s.agentRegistrationFee || 0)
      if (!card && fee > 0) {
        if (!value.phone_number) throw badRequest('Please enter a valid phone number')
        if (!value.network) throw badRequest('Please select a mobile network')
      }
      const transactionId = newTransactionId()

      const outcome = await sequelize.transaction(async (transaction) => {
        const a = await models.Agent.findByPk(agentId, { transaction, lock: transaction.LOCK.UPDATE })
        if (!a) throw notFound('Agent not found')
        if (a.get('paymentStatus') === 'SUCCESS') throw conflict('Your registration fee has already been paid.')
        const current = a.get('paymentTransactionId') as string | null
        if (current && PENDING.includes(a.get('paymentStatus') as string)) {
          const p = await models.Payment.findOne({ where: { transactionId: current }, transaction })
          // No payment row yet: another click claimed it a moment ago and is still talking to the gateway.
          const since = p ? (p.get('createdAt') as Date) : (a.get('updatedAt') as Date)
          const age = (Date.now() - new Date(since).getTime()) / 1000
          if ((!p || PENDING.includes(p.get('status') as string)) && age < FEE_REQUEST_COOLDOWN_SECONDS) {
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
        await audit.record(
          {
            action: 'PAYMENT_SUCCESS',
            resource: 'AGENT',
            resourceId: agentId,
            details: { purpose: 'agent_fee', amount: 0, reason: 'no registration fee configured' }
          },
          ctx
        )
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
            payerPhone: card ? null : normalizePhone(value.phone_number),
            payerNetwork: card ? null : value.network,
            email: card ? ctx.user!.email : null,
            agentId,
            userId: ctx.user!.id
          },
          ctx
        )
      } catch (err) {
        await models.Agent.update(
          { paymentStatus: 'FAILED' },
          { where: { id: agentId, paymentTransactionId: transactionId, paymentStatus: { [Op.in]: PENDING } } }
        )
        if (err instanceof AppError) throw new AppError(err.status, err.message, { ...(err.extra ?? {}), canRetry: true })
        ctx.log?.error({ err, agentId }, 'agent fee payment request failed')
        throw new AppError(502, 'Payment request failed', { canRetry: true })
      }
      const status = String(res.paymentStatus ?? 'PENDING').toUpperCase()
      // Settlement may already have moved the agent on (an instant approval); never step back from SUCCESS.
      await models.Agent.update(
        { paymentStatus: status },
        { where: { id: agentId, paymentTransactionId: transactionId, paymentStatus: { [Op.ne]: 'SUCCESS' } } }
      )
      const agent = await view(agentId)
      return {
        ...res,
        transactionId: res.transactionId ?? transactionId,
        paymentStatus: agent.paymentStatus === 'SUCCESS' ? 'SUCCESS' : status,
        amount: toGhs(fee),
        agent
      }
    },

    async myFeePaymentStatus(ctx: Ctx) {
      return feePaymentStatus(myAgentId(ctx), ctx)
    },

    /**
     * A new random PIN for the signed-in agent: returned once, stored only as an argon2id hash.
     * Checking it (with the per-agent lock) is services.ussd.verifyPin, the one place PINs are verified.
     */
    async resetPin(ctx: Ctx): Promise<{ pin: string }> {
      const agentId = myAgentId(ctx)
      const pin = randomPin()
      await models.Agent.update({ pinHash: await hashPin(pin), pinFailedAttempts: 0, pinLockedUntil: null }, { where: { id: agentId } })
      await audit.record({ action: 'AGENT_PIN_RESET', resource: 'AGENT', resourceId: agentId, severity: 'MEDIUM' }, ctx)
      return { pin }
    },

    feePesewas
  }
}
