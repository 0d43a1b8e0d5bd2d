import { Router } from 'express'
import type { Env } from '../server/env.ts'
import type { Logger } from '../server/lib/logger.ts'
import type { Services } from '../server/services/index.ts'
import { ADAPTERS } from './adapters/index.ts'
import { createUssdEngine, SERVICE_ERROR, type UssdEngine } from './engine.ts'
import { ussdGate } from './gate.ts'

/** POST /ussd/<gateway>: the telco-facing endpoint (outside /api: no session, no CSRF). */
export function ussdRouter(services: Services, opts: { env: Env; log: Logger; engine?: UssdEngine }) {
  const engine = opts.engine ?? createUssdEngine(services)
  const router = Router()
  const adapterOf = (name: string) => (Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name]! : null)

  router.post(
    '/:gateway',
    ussdGate(opts.env, opts.log, (req, res) => {
      const adapter = adapterOf(String(req.params.gateway))
      if (adapter) adapter.send(res, { end: true, text: 'Not allowed.' }, null, 403)
      else res.status(403).type('text/plain').send('END Not allowed.')
    }),
    async (req, res) => {
      const adapter = adapterOf(String(req.params.gateway))
      if (!adapter) {
        res.status(404).type('text/plain').send('END Unknown USSD gateway.')
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
