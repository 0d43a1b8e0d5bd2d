import Joi from 'joi'
import type { AfaListInput } from '../../../services/afa/admin.ts'
import { AFA_FORM, type AfaRegisterInput, FILL_ALL } from '../../../services/afa/index.ts'
import { REFERENCE_RE } from '../../../services/payments/index.ts'

// One schema per endpoint of /api/afa (public and admin), bound to the type its service takes.

/** POST /api/afa: a missing or empty field reads as an unfilled form. */
export const registerBody = Joi.object<AfaRegisterInput>({
  ...AFA_FORM,
  fullName: AFA_FORM.fullName.required(),
  ghCard: AFA_FORM.ghCard.required(),
  phone: AFA_FORM.phone.required(),
  paymentTransactionId: Joi.alternatives(Joi.string().trim().pattern(REFERENCE_RE), Joi.number().integer().min(1))
})
  .options({ stripUnknown: true })
  .messages({ 'any.required': FILL_ALL, 'string.empty': FILL_ALL })

/** GET /api/afa (admin) */
export const listQuery = Joi.object<AfaListInput>({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  search: Joi.string().trim().max(100).allow('')
}).options({ stripUnknown: true })

/** `:id` of PATCH /api/afa/:id/completed: up to ten digits, within a database integer. */
export const registrationIdParams = Joi.object<{ id: number }>({
  id: Joi.string()
    .pattern(/^\d{1,10}$/)
    .required()
    .custom((v: string, h) => {
      const id = Number(v)
      return id >= 1 && id <= 2_147_483_647 ? id : h.error('any.invalid')
    })
    .messages({ '*': 'Invalid registration id' })
}).options({ stripUnknown: true })
