import Joi from 'joi'
import { answerText } from '../../server/http/answer.ts'
import type { UssdAdapter } from './types.ts'

// Africa's Talking posts form fields and reads text/plain starting with 'CON ' or 'END '.
const schema = Joi.object({
  sessionId: Joi.string().trim().min(1).max(100).required(),
  serviceCode: Joi.string().trim().max(40).allow('').default(''),
  phoneNumber: Joi.string()
    .trim()
    .pattern(/^\+?\d{6,15}$/)
    .required(),
  networkCode: Joi.string().trim().max(20).allow('').default(''),
  // The whole dial's inputs; generous, but bounded so a hostile caller cannot make us work hard.
  text: Joi.string().allow('').max(2000).default('')
}).unknown(true)

export const africasTalking: UssdAdapter = {
  name: 'africastalking',
  parse(req) {
    const { value, error } = schema.validate(req.body ?? {}, { abortEarly: true, convert: true })
    if (error) return { ok: false, error: error.details[0]!.message.replace(/"/g, '') }
    return {
      ok: true,
      request: {
        gateway: 'africastalking',
        sessionId: value.sessionId,
        phone: value.phoneNumber.replace(/\D/g, ''),
        serviceCode: value.serviceCode || null,
        network: value.networkCode || null,
        text: value.text
      }
    }
  },
  send(res, reply, _request, status = 200) {
    answerText(res, `${reply.end ? 'END' : 'CON'} ${reply.text}`, status)
  }
}
