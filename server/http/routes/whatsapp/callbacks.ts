import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { answerJson, answerText } from '../../answer.ts'
import { formBody, jsonBody } from '../../middleware/body.ts'
import { rejectUnstorableText, requireKnownBody } from '../../middleware/input.ts'

/**
 * Meta's calls to the WhatsApp webhook, mounted in app.ts before the browser's middleware (ADR 0089): the GET
 * handshake proves itself with the verify token the config holds, each POST with the app secret's HMAC-SHA256 of
 * its raw body; neither reads a session or a signed-in user. The body goes through the app's own parsers and input
 * checks in the app's order, so a bad body gets the same answer; errors go on to the app's error handler.
 */
export function whatsappCallbacksRouter(services: Services) {
  const r = Router()
  const wa = services.whatsapp
  r.get('/webhook', rejectUnstorableText, (req, res) => {
    const challenge = wa.verifySubscription(req.query as Record<string, unknown>)
    if (challenge === null) return void answerText(res, 'Verification failed', 403)
    answerText(res, challenge)
  })
  r.post('/webhook', jsonBody(), formBody(), rejectUnstorableText, requireKnownBody, async (req, res) => {
    const result = await wa.webhook(req.rawBody, req.headers['x-hub-signature-256'], req.body, { ip: req.ip ?? null, log: req.log })
    if (!result) return void answerJson(res, { error: 'Invalid signature', message: 'Invalid signature' }, 401)
    answerJson(res, { ok: true, ...result })
  })
  return r
}
