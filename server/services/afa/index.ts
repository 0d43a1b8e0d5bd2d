import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { badRequest, forbidden } from '../../lib/errors.ts'
import { toPesewas } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import { type PaymentsService, type PaymentView } from '../payments/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createAfaQueries } from './queries.ts'

export const AFA_CLOSED = 'Platform is currently closed'
export const AFA_NEEDS_SUCCESS = 'Payment must be successful before completing registration'
export const FILL_ALL = 'Please fill all fields'
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The form's fields, checked alike when it travels with its payment and when it is registered. */
export const AFA_FORM = {
  fullName: Joi.string().trim().min(1).max(120),
  ghCard: Joi.string()
    .trim()
    .min(1)
    .max(40)
    .pattern(/^[A-Za-z0-9-]+$/)
    .messages({ 'string.pattern.base': 'GH card number may contain letters, digits and dashes only' }),
  phone: Joi.string()
    .trim()
    .pattern(/^\d{9,12}$/)
    .messages({ 'string.pattern.base': 'Please enter a valid phone number' }),
  email: Joi.string().trim().lowercase().allow('', null).max(254)
}

/** POST /api/afa: the form and the payment it was paid with. */
export interface AfaRegisterInput {
  fullName: string
  ghCard: string
  phone: string
  email?: string | null
  paymentTransactionId?: string | number
}

export function createAfaService({ sequelize, settings, payments }: { sequelize: Sequelize; settings: SettingsService; payments: PaymentsService }) {
  const q = createAfaQueries(sequelize)
  async function assertOpen() {
    if (!(await settings.getFresh()).platformOpen) throw forbidden(AFA_CLOSED)
  }

  return {
    /** Fee from settings; the form travels with the payment so a paid registration is never lost. */
    async requestPayment(raw: Record<string, unknown>, ctx: Ctx = {}): Promise<PaymentView> {
      await assertOpen()
      const given = ['fullName', 'ghCard', 'phone'].filter((k) => String(raw[k] ?? '').trim() !== '')
      // The spec's own client sends only the payer here and the form with POST /api/afa; ours sends both.
      if (given.length > 0 && given.length < 3) throw badRequest(FILL_ALL)
      let afa: { fullName: string; ghCard: string; phone: string; email: string | null } | null = null
      if (given.length === 3) {
        const { value, error } = Joi.object({
          ...AFA_FORM,
          fullName: AFA_FORM.fullName.required(),
          ghCard: AFA_FORM.ghCard.required(),
          phone: AFA_FORM.phone.required()
        })
          .options({ stripUnknown: true })
          .validate({ fullName: raw.fullName, ghCard: raw.ghCard, phone: raw.phone, email: raw.email })
        if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
        afa = { fullName: value.fullName, ghCard: value.ghCard.toUpperCase(), phone: value.phone, email: value.email || null }
      }
      const method = await payments.methodFor({})
      // Fresh: the fee decides money (never a stale cached copy).
      const fee = toPesewas((await settings.getFresh()).afaRegistrationFee)
      // With a fee of 0 there is nothing to pay: no payer phone or checkout e-mail is asked for.
      if (fee > 0 && method === 'card') {
        const email = String(raw.email ?? '')
          .trim()
          .toLowerCase()
        if (!email) throw badRequest(FILL_ALL)
        if (!EMAIL_RE.test(email)) throw badRequest('Please enter a valid email address for payment')
      } else if (fee > 0 && !String(raw.payerPhone ?? '').trim()) throw badRequest('Please enter payment phone number')
      return payments.request(
        {
          purpose: 'afa',
          amountPesewas: fee,
          transactionId: raw.transactionId as string | undefined,
          payerPhone: raw.payerPhone as string | undefined,
          payerNetwork: raw.payerNetwork as string | undefined,
          email: raw.email as string | undefined,
          userId: ctx.user?.id ?? null,
          afa,
          callbackUrl: (raw.callbackUrl as string | undefined) ?? null,
          method,
          emailMessage: 'Please enter a valid email address for payment'
        },
        ctx
      )
    },

    /** Refuses while the platform is closed; POST /api/afa asks before it reads the form, so closed answers 403 whatever was sent. */
    assertOpen,

    /**
     * POST /api/afa, after `assertOpen`: recorded only against a payment the gateway confirmed; the
     * client's paymentStatus is ignored.
     */
    async register(input: AfaRegisterInput, ctx: Ctx = {}): Promise<{ id: number }> {
      if (input.paymentTransactionId === undefined) throw badRequest(AFA_NEEDS_SUCCESS)
      const tid = String(input.paymentTransactionId)
      let p = await payments.load(tid)
      if (!p || p.purpose !== 'afa') throw badRequest(AFA_NEEDS_SUCCESS)
      if (p.status !== 'SUCCESS') {
        await payments.refresh(tid)
        p = await payments.load(tid)
      }
      if (!p || p.status !== 'SUCCESS') throw badRequest(AFA_NEEDS_SUCCESS)
      if (p.user_id && ctx.user?.id !== p.user_id && ctx.user?.role !== 'ADMIN') throw badRequest(AFA_NEEDS_SUCCESS)
      if (p.afa_registration_id) return { id: p.afa_registration_id }
      const id = await q.registerPaid({
        fullName: input.fullName,
        ghCard: input.ghCard.toUpperCase(),
        phone: input.phone,
        email: input.email || p.email,
        amountPesewas: p.amount_pesewas,
        transactionId: tid
      })
      await q.linkPayment(id, tid)
      return { id }
    }
  }
}
