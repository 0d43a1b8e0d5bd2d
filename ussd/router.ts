import { Router } from 'express'
import type { Env } from '../server/env.ts'
import { answerText } from '../server/http/answer.ts'
import { formBody, jsonBody } from '../server/http/middleware/body.ts'
import { rejectUnstorableText } from '../server/http/middleware/input.ts'
import type { Logger } from '../server/lib/logger.ts'
import type { Services } from '../server/services/index.ts'
import { ADAPTERS } from './adapters/index.ts'
import { createUssdEngine, SERVICE_ERROR, type UssdEngine } from './engine.ts'
import { ussdGate } from './gate.ts'

/**
 * POST /ussd/<gateway>: the telco-facing endpoint, mounted before the browser's middleware (ADR 0089): no session,
 * sign-in, CSRF check or compression. The body goes through the app's own parsers and unstorable-text check in the
 * app's order, before the gate, as on the browser's path; their errors go on to the app's error handler.
 */
export function ussdRouter(services: Services, opts: { env: Env; log: Logger; engine?: UssdEngine }) {
  const engine = opts.engine ?? createUssdEngine(services)
  const router = Router()
  const adapterOf = (name: string) => (Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name]! : null)

  router.post(
    '/:gateway',
    jsonBody(),
    formBody(),
    rejectUnstorableText,
    ussdGate(opts.env, opts.log, (req, res) => {
      const adapter = adapterOf(String(req.params.gateway))
      if (adapter) adapter.send(res, { end: true, text: 'Not allowed.' }, null, 403)
      else answerText(res, 'END Not allowed.', 403)
    }),
    async (req, res) => {
      const adapter = adapterOf(String(req.params.gateway))
      if (!adapter) {
        answerText(res, 'END Unknown USSD gateway.', 404)
        return
      }
      const parsed = adapter.parse(req)
      if (!parsed.ok) {
        req.log.info({ error: parsed.error }, 'USSD request rejected')
        adapter.send(res, { end: true, text: `Invalid request: ${parsed.error}` }, null, 400)
        return
      }
      try {
        const reply = await engine.handle(parsed.request, { ip: req.ip ?? null, log: req.log })
        adapter.send(res, reply, parsed.request)
      } catch (err) {
        // The gateway waits only seconds and shows whatever we send: a clear END, never a stack trace.
        req.log.error({ err }, 'USSD hop failed')
        adapter.send(res, { end: true, text: SERVICE_ERROR }, parsed.request)
      }
    }
  )
  return router
}
