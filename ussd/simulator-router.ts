import { Router, type Request } from 'express'
import Joi from 'joi'
import type { Env } from '../server/env.ts'
import { badRequest, forbidden } from '../server/lib/errors.ts'
import { SIMULATOR_HEADER, SIMULATOR_TOKEN } from './gate.ts'

const schema = Joi.object({
  sessionId: Joi.string()
    .trim()
    .pattern(/^[\w-]{6,64}$/)
    .required(),
  phoneNumber: Joi.string()
    .trim()
    .pattern(/^\+?\d{9,15}$/)
    .required()
    .messages({ 'string.pattern.base': 'Enter a valid phone number' }),
  serviceCode: Joi.string().trim().max(30).allow('').default('*920*44#'),
  networkCode: Joi.string().trim().max(10).allow('').default(''),
  text: Joi.string().allow('').max(2000).default('')
})

/** Who may play the phone: anyone in development, admins elsewhere. */
export function simulatorAllowed(env: Env, user: { role: string } | null | undefined): boolean {
  return env.NODE_ENV === 'development' || user?.role === 'ADMIN'
}

function selfUrl(req: Request): string {
  const addr = req.socket.localAddress ?? '127.0.0.1'
  const host = addr.startsWith('::ffff:') ? addr.slice(7) : addr.includes(':') ? `[${addr}]` : addr
  return `http://${host}:${req.socket.localPort}/ussd/africastalking`
}

/**
 * POST /api/ussd-simulator/hop: the simulator page's phone. It calls the real gateway endpoint over
 * HTTP, in the Africa's Talking format, exactly as the telco would (the shared secret and address
 * checks are passed with a per-process token instead).
 */
export function ussdSimulatorRouter(env: Env) {
  const router = Router()
  router.post('/hop', async (req, res) => {
    if (!simulatorAllowed(env, req.user))
      throw req.user ? forbidden('The USSD simulator is for admins') : forbidden('Sign in as an admin to use the USSD simulator')
    const { value, error } = schema.validate(req.body ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const started = performance.now()
    const r = await fetch(selfUrl(req), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', [SIMULATOR_HEADER]: SIMULATOR_TOKEN, 'x-request-id': req.id },
      body: new URLSearchParams(value).toString()
    })
    const body = await r.text()
    res.json({ status: r.status, response: body, end: !body.startsWith('CON '), ms: Math.round(performance.now() - started) })
  })
  return router
}
