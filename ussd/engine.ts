import { AppError } from '../server/lib/errors.ts'
import type { Logger } from '../server/lib/logger.ts'
import { normalizePhone } from '../server/lib/phone.ts'
import type { Services } from '../server/services/index.ts'
import type { AccessRefusal } from '../server/services/ussd/index.ts'
import type { GatewayRequest, UssdReply } from './adapters/types.ts'
import { payerNetworkOf } from './networks.ts'
import type { DialState, MenuEnv } from './dial.ts'
import { SCREENS, step } from './menu.ts'
import { CUSTOMER_SCREENS, customerDial, customerStep, type CustomerDial } from './customer-menu.ts'
import { menuPorts, type MenuPorts } from './ports.ts'
import { ascii, fit } from './text.ts'

/** Short, clear END texts for every refusal at dial-in. */
export function refusalText(reason: AccessRefusal, minutesLeft?: number): string {
  switch (reason) {
    case 'not_whitelisted':
      return 'This number is not allowed to use this service.'
    case 'not_agent':
      return 'No agent account uses this number. Register as an agent on our website first.'
    case 'not_paid':
      return 'Your agent registration fee is not paid yet. Pay it in the agent portal.'
    case 'not_approved':
      return 'Your agent account is awaiting approval (usually 24-48 hours).'
    case 'no_pin':
      return 'You have no USSD PIN yet. Get one in the agent portal (Profile).'
    case 'locked':
      return `Too many wrong PINs. USSD is locked. Try again in ${minutesLeft ?? 30} min.`
  }
}

/**
 * Callers refused as agents for these reasons are customers when the customer menu is on. A locked or
 * PIN-less agent is still an agent: refused as before, so the customer menu never sidesteps a lock.
 */
const CUSTOMER_REASONS = new Set<AccessRefusal>(['not_whitelisted', 'not_agent', 'not_paid', 'not_approved'])

export const TIMED_OUT = 'Session timed out. Please dial again.'
export const SERVICE_ERROR = 'Service unavailable. Please try again later.'

/**
 * This hop's answer. Cumulative gateways resend every input joined by '*': the new part is what
 * follows the characters already handled. Returns null for a repeated request (same text again) and
 * false when the text does not extend what came before.
 */
export function newInput(req: GatewayRequest, consumed: number): string | null | false {
  if (req.text === undefined) return req.lastInput ?? ''
  const text = req.text
  if (text.length === consumed) return null
  if (text.length < consumed) return false
  if (consumed === 0) return text
  return text[consumed] === '*' ? text.slice(consumed + 1) : false
}

const end = (text: string): UssdReply => ({ end: true, text: fit(text) })
const con = (text: string): UssdReply => ({ end: false, text: fit(text) })

export interface UssdEngine {
  handle(req: GatewayRequest, meta: { ip?: string | null; log?: Logger }): Promise<UssdReply>
}

export function createUssdEngine(services: Services, ports?: MenuPorts): UssdEngine {
  // Tests change bundles between dials in one process: no list cache there.
  ports ??= menuPorts(services, services.deps.env.NODE_ENV === 'test' ? { cacheMs: 0 } : {})
  const store = services.ussd.sessions

  async function start(req: GatewayRequest, phone: string, env: MenuEnv): Promise<UssdReply> {
    const access = await services.ussd.checkAccess(phone)
    const consumed = req.text?.length ?? 0
    if (!access.ok && CUSTOMER_REASONS.has(access.reason) && (await services.settings.get()).ussdCustomerEnabled) {
      const dial = customerDial(phone, payerNetworkOf(req.network, phone), consumed)
      await store.save(req.sessionId, phone, dial)
      return con(await CUSTOMER_SCREENS.home.render(env, dial))
    }
    if (!access.ok) {
      env.ctx.log?.info({ reason: access.reason, gateway: req.gateway }, 'USSD dial refused')
      return end(refusalText(access.reason, access.minutesLeft))
    }
    const state: DialState = {
      v: 1,
      // A code dialled with answers in it (*123*1#) arrives as text on the first hop: ignored.
      consumed,
      agent: access.agent,
      payerNetwork: payerNetworkOf(req.network, access.agent.phone),
      authed: false,
      screen: 'pin',
      stack: []
    }
    await store.save(req.sessionId, phone, state)
    return con(await SCREENS.pin.render(env, state))
  }

  return {
    async handle(req, meta) {
      const phone = normalizePhone(req.phone)
      const env: MenuEnv = { services, ports, sessionId: req.sessionId, ctx: { ip: meta.ip ?? null, log: meta.log, user: null } }
      const existing = req.newSession ? null : await store.get<DialState | CustomerDial>(req.sessionId)
      if (!existing) {
        // A last-input gateway continuing a dial we no longer know: it idled out and was purged.
        if (req.newSession === false) return end(TIMED_OUT)
        return start(req, phone, env)
      }
      if (existing.phone !== phone) return end('This session belongs to another number. Please dial again.')
      if (existing.expired) {
        await store.remove(req.sessionId)
        return end(TIMED_OUT)
      }
      const state = existing.state
      const input = newInput(req, state.consumed)
      if (req.text !== undefined) state.consumed = req.text.length
      let reply: UssdReply
      try {
        const answer = input === false ? '\u0000' : input?.trim()
        if ('kind' in state)
          reply = answer === undefined ? con(await CUSTOMER_SCREENS[state.screen].render(env, state)) : await customerStep(env, state, answer)
        else if (answer === undefined) reply = con(await SCREENS[state.authed ? state.screen : 'pin'].render(env, state))
        else reply = await step(env, state, answer)
      } catch (err) {
        if (!(err instanceof AppError)) throw err
        // A rule of the order or payment services (platform closed, agent not approved...): say it and stop.
        reply = { end: true, text: ascii(err.message) }
      }
      reply = { end: reply.end, text: fit(reply.text) }
      if (reply.end) await store.remove(req.sessionId)
      else await store.save(req.sessionId, phone, state)
      return reply
    }
  }
}
