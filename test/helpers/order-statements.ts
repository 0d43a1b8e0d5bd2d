import { expect } from 'chai'
import pg from 'pg'
import { createAgent, createPackage } from './factories.ts'
import { adminClient, Client } from './http.ts'

// The order-statements tests' counting of what an order asks of PostgreSQL, and their funded agent.
/**
 * What placing an order asks of PostgreSQL (ADR 0046), counted from the statements the app's pg
 * connections send during one request: how many there are, and how many commits wait for the WAL
 * flush (a COMMIT, or a write outside a transaction that does not turn the wait off). Counts, never
 * times: the machine decides the milliseconds, the code decides these.
 */
export async function statementsOf(fn: () => Promise<unknown>, together?: [RegExp, RegExp]) {
  const query = pg.Client.prototype.query
  const { sentOne, heldBack, inPair } = pairGate(together)
  const sent: string[] = []
  // Statements sent by name (parsed and planned once per connection, ADR 0024).
  const named: string[] = []
  // '> text' when a statement is sent, '< text' when it is answered: which round trips overlap.
  const events: string[] = []
  let flushes = 0
  const inTransaction = new WeakSet<object>()
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    const q = args[0] as string | { text?: string }
    const text = (typeof q === 'string' ? q : (q?.text ?? '')).trim()
    // The pool's liveness probe runs on its own clock, not the request's.
    if (text !== 'SELECT 1') {
      sent.push(text)
      if (typeof q === 'object' && (q as { name?: string }).name) named.push(text)
      if (/^(START TRANSACTION|BEGIN)/i.test(text)) inTransaction.add(this)
      else if (/^COMMIT/i.test(text)) {
        inTransaction.delete(this)
        flushes++
      } else if (/^ROLLBACK/i.test(text)) inTransaction.delete(this)
      else if (!inTransaction.has(this) && /\b(INSERT|UPDATE|DELETE)\b/i.test(text) && !/set_config\('synchronous_commit', 'off'/.test(text)) flushes++
    }
    if (text === 'SELECT 1') return (query as (...a: unknown[]) => unknown).apply(this, args)
    events.push(`> ${text}`)
    sentOne(text)
    const answered = () => events.push(`< ${text}`)
    const cb = args.findIndex((a) => typeof a === 'function')
    if (cb >= 0) {
      const done = args[cb] as (...r: unknown[]) => unknown
      args[cb] = (...r: unknown[]) => {
        const go = () => {
          answered()
          return done(...r)
        }
        const held = heldBack(text)
        return held ? void held.then(go) : go()
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    }
    const out = (query as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown> | undefined
    if (!out || typeof out.then !== 'function') return out
    if (!inPair(text)) {
      out.then(answered, answered)
      return out
    }
    const after = async () => {
      await heldBack(text)
      answered()
    }
    return out.then(
      async (r) => (await after(), r),
      async (e: unknown) => {
        await after()
        throw e
      }
    )
  } as typeof query
  try {
    const out = await fn()
    return { out: out as { status: number; text: string; body: any; headers: Headers }, statements: sent.length, flushes, sent, events, named }
  } finally {
    pg.Client.prototype.query = query
  }
}

/**
 * For `together` = [a, b]: an answer to a statement matching one of them reaches the app only once one matching the other
 * has been sent too. If the app sends both without waiting for either (the claim askedAtOnce checks), that holds nothing
 * back for long, whatever the machine's speed: a busy machine (a connection still being opened for the second) can no
 * longer deliver the first answer before the second is sent. If the app waits for the first answer before the second,
 * the second never comes while the answer is held: the answer goes on after a few seconds and askedAtOnce is false.
 */
function pairGate(together?: [RegExp, RegExp]) {
  const sent = [false, false]
  const waiting: (() => void)[] = []
  const side = (text: string) => together?.findIndex((re) => re.test(text)) ?? -1
  return {
    inPair: (text: string) => side(text) >= 0,
    sentOne(text: string) {
      const i = side(text)
      if (i < 0) return
      sent[i] = true
      if (sent[0] && sent[1]) for (const go of waiting.splice(0)) go()
    },
    /** A promise to wait for before the app gets this answer, or null when it may have it at once. */
    heldBack(text: string): Promise<void> | null {
      const i = side(text)
      if (i < 0 || sent[1 - i]) return null
      return new Promise((resolve) => {
        waiting.push(resolve)
        // Only when the other is never sent (the app waits for this answer): a guard against a deadlock, not a measure.
        setTimeout(resolve, 3000).unref()
      })
    }
  }
}

/** True when statements matching `a` and `b` were both sent before either was answered: one round trip for two. */
export function askedAtOnce(events: string[], a: RegExp, b: RegExp): boolean {
  const at = (mark: string, re: RegExp) => events.findIndex((e) => e.startsWith(mark) && re.test(e.slice(2)))
  const [sentA, sentB, answeredA, answeredB] = [at('>', a), at('>', b), at('<', a), at('<', b)]
  return sentA >= 0 && sentB >= 0 && Math.max(sentA, sentB) < Math.min(answeredA, answeredB)
}

// The request limit and the package a visitor's order reads: asked together.
export const LIMIT = /^INSERT INTO rate_limiter_flexible\b/
export const PACKAGE = /\bFROM packages\b/

/** An agent with GHS 20 in its wallet, signed in on the portal, and a bundle it buys at GHS 4.50. */
export async function fundedAgent() {
  const pkg = await createPackage({ priceAgentPesewas: 450 })
  const a = await createAgent()
  const admin = await adminClient()
  expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 20, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  return { pkg, a, portal }
}
