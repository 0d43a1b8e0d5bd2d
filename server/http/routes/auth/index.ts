import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireUser } from '../../middleware/auth.ts'
import { ensureCsrfToken } from '../../middleware/csrf.ts'
import { ctxOf, keepCurrentSession } from '../../ctx.ts'
import { valid, validQuoted } from '../../validate.ts'
import { changePasswordBody, forgotBody, loginBody, resetBody } from './schema.ts'

export function authRouter(services: Services) {
  const r = Router()

  r.post('/login', async (req, res) => {
    const { actor, tokens } = await services.auth.login(validQuoted(loginBody, req.body), ctxOf(req))
    // A new session id at sign-in (no fixation), then the cookie signs the browser in too.
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())))
    req.session.userId = actor.id
    req.session.epoch = actor.sessionEpoch ?? 0
    const csrfToken = ensureCsrfToken(req.session)
    res.json({ ...tokens, role: actor.role, email: actor.email, csrfToken })
  })

  r.post('/refresh', async (req, res) => {
    if (!req.body?.refreshToken && req.user) {
      // A browser on its cookie session: touching the session is what extends it.
      res.json({ accessToken: null, expiresIn: 1800 })
      return
    }
    res.json(await services.auth.refresh(req.body?.refreshToken, ctxOf(req)))
  })

  r.get('/me', requireUser, (req, res) => {
    const u = req.user!
    res.json({
      user: { id: u.id, email: u.email, role: u.role, name: u.name, phone: u.phone },
      agent: u.agent ? { id: u.agent.id, approved: u.agent.approved, paymentStatus: u.agent.paymentStatus, name: u.agent.name, phone: u.agent.phone } : null
    })
  })

  r.post('/change-password', requireUser, async (req, res) => {
    const ended = await services.auth.changePassword(validQuoted(changePasswordBody, req.body), ctxOf(req))
    keepCurrentSession(req, ended.epoch)
    res.json({ message: 'Password changed successfully' })
  })

  r.post('/logout-everywhere', requireUser, async (req, res) => {
    const ended = await services.auth.logoutEverywhere(ctxOf(req))
    keepCurrentSession(req, ended.epoch)
    res.json({ message: 'Signed out everywhere else', sessions: ended.sessions + ended.tokens })
  })

  // Account recovery: one answer for every identifier; codes and passwords are never echoed.
  r.post('/forgot', async (req, res) => {
    res.set('Cache-Control', 'no-store')
    services.recovery.assertAvailable()
    res.json(await services.recovery.request(valid(forgotBody, req.body), ctxOf(req)))
  })

  r.post('/reset', async (req, res) => {
    res.set('Cache-Control', 'no-store')
    services.recovery.assertAvailable()
    res.json(await services.recovery.reset(valid(resetBody, req.body), ctxOf(req)))
  })

  r.post('/logout', async (req, res) => {
    await services.auth.logout(ctxOf(req))
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()))
    res.clearCookie('datahub.sid')
    res.json({ message: 'Signed out' })
  })

  return r
}
