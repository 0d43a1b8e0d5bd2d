import Joi from 'joi'
import { answerJson } from '../../server/http/answer.ts'
import type { UssdAdapter } from './types.ts'

// Arkesel-style JSON gateway (Hubtel and Nalo are alike): only this hop's input arrives, with a
// newSession flag; the answer is JSON with continueSession. This file is all a new gateway needs.
const schema = Joi.object({
  sessionID: Joi.string().trim().min(1).max(100).required(),
  userID: Joi.string().trim().max(60).allow('').default(''),
  newSession: Joi.boolean().required(),
  msisdn: Joi.string()
    .trim()
    .pattern(/^\+?\d{6,15}$/)
    .required(),
  userData: Joi.string().allow('').max(200).default(''),
  network: Joi.string().trim().max(30).allow('').default('')
}).unknown(true)

export const arkesel: UssdAdapter = {
  name: 'arkesel',
  parse(req) {
    const { value, error } = schema.validate(req.body ?? {}, { abortEarly: true, convert: true })
    if (error) return { ok: false, error: error.details[0]!.message.replace(/"/g, '') }
    return {
      ok: true,
      request: {
        gateway: 'arkesel',
        sessionId: `ark:${value.sessionID}`,
        phone: value.msisdn.replace(/\D/g, ''),
        serviceCode: value.newSession ? value.userData || null : null,
        network: value.network || null,
        // On the first hop userData is the dialled code, not an answer.
        lastInput: value.newSession ? '' : value.userData,
        newSession: value.newSession,
        echo: { sessionID: value.sessionID, userID: value.userID, msisdn: value.msisdn }
      }
    }
  },
  send(res, reply, request, status = 200) {
    answerJson(res, { ...(request?.echo ?? {}), message: reply.text, continueSession: !reply.end }, status)
  }
}
