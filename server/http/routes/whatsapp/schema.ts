import Joi from 'joi'
import type { PayLinkInput, SimulateInput } from '../../../services/whatsapp/index.ts'

// One schema per endpoint of /api/whatsapp that takes input, bound to the type its service takes.

const TYPE_A_MESSAGE = 'Type a message'
// What the old clients sent is kept: a field that is not text counts as missing, never as a 400 of its own.
const textOr = <T extends string | null>(fallback: T) =>
  Joi.any()
    .custom((v) => (typeof v === 'string' ? v : fallback))
    .default(fallback)

/** POST /api/whatsapp/simulator/messages: the customer's digits, then a text or a tapped reply. */
export const simulatorMessageBody = Joi.object<SimulateInput>({
  from: Joi.any()
    .custom((v, h) => {
      const digits = String(v ?? '').replace(/\D/g, '')
      return /^\d{9,15}$/.test(digits) ? digits : h.error('any.invalid')
    })
    .required()
    .messages({ '*': 'Enter the customer phone number (digits)' }),
  name: Joi.any()
    .custom((v) => String(v ?? 'Simulator'))
    .default('Simulator'),
  text: textOr('').custom((v: string) => v.slice(0, 4096)),
  replyId: textOr<string | null>(null).custom((v: string | null) => (v ? v.slice(0, 256) : null)),
  replyTitle: Joi.any()
    .custom((v) => String(v ?? '').slice(0, 100))
    .default('')
})
  .custom((v: SimulateInput, h) => (v.replyId || v.text.trim() ? v : h.error('any.custom')))
  .messages({ 'any.custom': TYPE_A_MESSAGE })
  .options({ stripUnknown: true })

/** POST /api/whatsapp/pay/:token: how the payer pays (a field that is not text is not given). */
export const payBody = Joi.object<PayLinkInput>({
  payerPhone: textOr(null),
  payerNetwork: textOr(null),
  email: textOr(null)
}).options({ stripUnknown: true })

const MESSAGE_TOO_LONG = 'Message is too long (4096 characters at most)'

/** POST /api/whatsapp/chats/:waId/reply */
export const replyBody = Joi.object<{ text: string }>({
  text: Joi.any()
    .custom((v, h) => {
      const message = String(v ?? '').trim()
      if (!message) return h.error('any.required')
      return message.length > 4096 ? h.error('string.max') : message
    })
    .required()
    .messages({ 'any.required': 'Please type a message', 'string.max': MESSAGE_TOO_LONG })
}).options({ stripUnknown: true })
