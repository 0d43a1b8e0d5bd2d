import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * What placing an order asks of PostgreSQL (ADR 0046), counted from the statements the app's pg
 * connections send during one request: how many there are, and how many commits wait for the WAL
 * flush (a COMMIT, or a write outside a transaction that does not turn the wait off). Counts, never
 * times: the machine decides the milliseconds, the code decides these.
 */
async function statementsOf(fn: () => Promise<unknown>, together?: [RegExp, RegExp]) {
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
function askedAtOnce(events: string[], a: RegExp, b: RegExp): boolean {
  const at = (mark: string, re: RegExp) => events.findIndex((e) => e.startsWith(mark) && re.test(e.slice(2)))
  const [sentA, sentB, answeredA, answeredB] = [at('>', a), at('>', b), at('<', a), at('<', b)]
  return sentA >= 0 && sentB >= 0 && Math.max(sentA, sentB) < Math.min(answeredA, answeredB)
}

// The request limit and the package a visitor's order reads: asked together.
const LIMIT = /^INSERT INTO rate_limiter_flexible\b/
const PACKAGE = /\bFROM packages\b/

/** An agent with GHS 20 in its wallet, signed in on the portal, and a bundle it buys at GHS 4.50. */
async function fundedAgent() {
  const pkg = await createPackage({ priceAgentPesewas: 450 })
  const a = await createAgent()
  const admin = await adminClient()
  expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 20, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  return { pkg, a, portal }
}

describe('placing an order: statements and commits (ADR 0046)', () => {
  beforeEach(resetDb)

  it("a visitor's mobile-money order: the order with its payment in one flushed commit before the prompt, the gateway's answer, and no session", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    // The settings cached as any running shop has them.
    await visitor.get('/api/settings')
    const { out, statements, flushes, sent, events, named } = await statementsOf(
      () => visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' }),
      [LIMIT, PACKAGE]
    )
    expect(out.status, out.text).to.equal(201)
    // Every statement of the order goes by name: none is parsed and planned again per order.
    expect(
      sent.filter((s) => !named.includes(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(out.body.order).to.include({ paymentStatus: 'PENDING', recipientNumber: '0241234567' })
    expect(out.body.payment).to.include({ paymentStatus: 'PENDING' })
    expect(flushes, sent.join('\n')).to.equal(1)
    // The payment this browser started is remembered in its signed cookie: nothing is written to the session table.
    expect(
      sent.filter((s) => /\bsession\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // Four statements in three round trips: the request limit with the package, the order with its payment, the gateway's answer.
    expect(statements, sent.join('\n')).to.equal(4)
    expect(askedAtOnce(events, LIMIT, PACKAGE), events.join('\n')).to.equal(true)
    // The order, its audit entry and its claimed payment are one statement: no transaction around it.
    expect(
      sent.filter((s) => /^(START TRANSACTION|BEGIN|COMMIT)/i.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const [placing] = sent.filter((s) => /INSERT INTO orders\b/.test(s))
    expect(placing, sent.join('\n')).to.match(/INSERT INTO audit_logs\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO payments\b/)
    // The order's audit entry is written by the order's own statement.
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // Nothing was read back that a write had returned, and the settings came from the cache.
    expect(
      sent.filter((s) => /^SELECT \* FROM payments/.test(s) || /FROM "orders"/.test(s) || /^SELECT [^(]*FROM settings/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
  })

  it("a visitor's order is answered while the session table is held: it has nothing to write there, and its browser finds its payment", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
    try {
      // No read or write of the session table can pass this lock until it is let go.
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE session IN ACCESS EXCLUSIVE MODE')
      const out = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
      expect(out.status, out.text).to.equal(201)
      const again = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234568', payerPhone: '0241234568', payerNetwork: 'MTN' })
      expect(again.status, again.text).to.equal(201)
      // The next requests of this browser find both payments it started.
      expect((await visitor.get(`/api/payment/status/${out.body.payment.transactionId}`)).status).to.equal(200)
      expect((await visitor.get(`/api/payment/status/${again.body.payment.transactionId}`)).status).to.equal(200)
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
  })

  it("a wallet order over the reseller API: two statements, the key's with the price rule's read, then the order with its audit entry, its Idempotency-Key, its payment and the debit in one autocommitted statement", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Counted' })).body.key
    // A first order, so the key's "last used" mark and the settings are as any later order finds them.
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    const { out, statements, flushes, sent, events, named } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'counted-1' })
    )
    // The key's request counter and its user need only the key's row: counted and read by the key's own statement,
    // not statements of their own.
    const [keyRead] = sent.filter((s) => /\bFROM api_keys\b/.test(s))
    expect(keyRead, sent.join('\n')).to.match(/INSERT INTO rate_limits\b/)
    expect(keyRead, sent.join('\n')).to.match(/\busers u LEFT JOIN agents a\b/)
    expect(
      sent.filter((s) => /^INSERT INTO rate_limits\b|^SELECT u\.id\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The Idempotency-Key's earlier use is read by the key's statement too (it knows the key's agent), not by one of its own.
    expect(keyRead, sent.join('\n')).to.match(/\bLEFT JOIN idempotency_keys\b/)
    expect(
      sent.filter((s) => /^SELECT [^(]*\bFROM idempotency_keys\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', recipientNumber: '0241112211' })
    expect(flushes, sent.join('\n')).to.equal(1)
    // 9: no delivery job in the order's transaction (the delivery pump claims it, ADR 0063); the Idempotency-Key's
    // earlier use and the package read by the key's statement, the payment and the debit written by the order's (ADR 0065);
    // the price rule's read made by the key's statement too, and settlement's audit entry written by the answer's read (ADR 0068);
    // the order and its payment written already paid, with the commission, by the order's statement: no settling UPDATE (ADR 0072);
    // the agent's webhook URL read by the order's statement, so the webhook subscriber reads nothing for an agent without one,
    // and the agent's text written by the order's statement (ADR 0075); settlement's audit entry written by the order's
    // statement too, which returns the answer's orders_view row, and that statement is its own transaction: no START,
    // no COMMIT (ADR 0079).
    expect(statements, sent.join('\n')).to.equal(2)
    expect(
      sent.filter((s) => /^INSERT INTO sms_outbox\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(
      sent.filter((s) => /\bFROM orders_view o JOIN agents a\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The path's own reads go by name, parsed and planned once per connection: the key with its counter, its user,
    // the Idempotency-Key's earlier use and the price rule.
    expect(
      sent.filter((s) => /\bFROM (api_keys|users|idempotency_keys|agents a LEFT JOIN agents p)\b/.test(s) && !named.includes(s)),
      'sent without a name'
    ).to.deep.equal([])
    // The Idempotency-Key is recorded by the order's own statement, with its audit entry, and so are the payment, the
    // debit and its ledger entry; the debit's UPDATE is fed by the payment, the payment by the key (ADR 0065).
    const [placing] = sent.filter((s) => /INSERT INTO orders\b/.test(s))
    expect(placing, sent.join('\n')).to.match(/INSERT INTO idempotency_keys\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO payments\b[\s\S]*\bFROM o, also RETURNING\b/)
    expect(placing, sent.join('\n')).to.match(/UPDATE wallets SET\b[\s\S]*\bFROM p\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO wallet_entries\b/)
    expect(
      sent.filter((s) => /^WITH p AS \(\s*INSERT INTO payments\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(
      sent.filter((s) => /^INSERT INTO idempotency_keys\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The package the body names is read by the key's statement too: before the transaction, one statement in one round trip.
    expect(keyRead, sent.join('\n')).to.match(/\bFROM packages WHERE id = \$4::int AND active\b/)
    expect(sent[1], sent.join('\n')).to.match(/^WITH o AS \(\s*INSERT INTO orders\b/)
    expect(
      sent.filter((s) => /^(START|BEGIN|COMMIT)\b/i.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The price rule's reads (the agent, the tiers, the tiers' prices) are the key's statement's, and no audit entry is
    // written alone: the order's and the payment's come with the order (ADR 0068, 0079).
    expect(
      sent.filter((s) => /\b(tiers|tier_prices|agents a LEFT JOIN agents p)\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([keyRead])
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(placing, sent.join('\n')).to.match(/\bpe AS \(INSERT INTO audit_logs\b/)
    expect(
      sent.filter((s) => /\bFROM orders_view\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(sent.slice(2), 'after the commit').to.deep.equal([])
    // The wallet moved once, by one conditional UPDATE: no row lock taken by a SELECT, no second write.
    expect(
      sent.filter((s) => /wallets/.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450 - 450)
  })

  it("a wallet order's package is read by the key's statement: one not on sale is refused as before, with no read of its own and nothing written", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Packages' })).body.key
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112240' }, { 'Idempotency-Key': 'warm' })).status).to.equal(201)
    const off = await createPackage({ priceAgentPesewas: 450, active: false })
    const { out, sent } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: off.id, recipientNumber: '0241112241' }, { 'Idempotency-Key': 'off-sale' })
    )
    expect(out.status, out.text).to.equal(400)
    expect(out.body.error).to.equal('Please select a package')
    expect(sent, sent.join('\n')).to.have.length(1)
    expect(sent[0], sent.join('\n')).to.match(/\bFROM packages WHERE id = \$4::int AND active\b/)
    // A package id sent as text is the same package, read the same way.
    const { out: asText, sent: sentAsText } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: String(pkg.id), recipientNumber: '0241112242' }, { 'Idempotency-Key': 'as-text' })
    )
    expect(asText.status, asText.text).to.equal(201)
    expect(
      sentAsText.filter((s) => /\bFROM packages\b/.test(s) && !/\bFROM api_keys\b/.test(s)),
      sentAsText.join('\n')
    ).to.deep.equal([])
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450 - 450)
  })

  it("a wallet order's retry with its Idempotency-Key is answered from the key's statement: the key, then the order read back, nothing placed", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Replayed' })).body.key
    const body = { packageId: pkg.id, recipientNumber: '0241112233' }
    const first = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'replayed-1' })
    expect(first.status, first.text).to.equal(201)
    const { out, sent } = await statementsOf(() => api.post('/api/v1/orders', body, { 'Idempotency-Key': 'replayed-1' }))
    expect(out.status, out.text).to.equal(201)
    expect(out.headers.get('idempotent-replayed')).to.equal('true')
    expect(out.body.order).to.deep.equal(first.body.order)
    // The key's statement read the earlier use; the only other statement reads the order it made.
    expect(sent, sent.join('\n')).to.have.length(2)
    expect(sent[0], sent.join('\n')).to.match(/\bLEFT JOIN idempotency_keys\b/)
    expect(sent[1], sent.join('\n')).to.match(/\bFROM orders_view\b/)
    // Another body under the same key is still refused, and no money moved for either.
    const other = await statementsOf(() => api.post('/api/v1/orders', { ...body, recipientNumber: '0241112234' }, { 'Idempotency-Key': 'replayed-1' }))
    expect(other.out.status, other.out.text).to.equal(422)
    expect(other.sent, other.sent.join('\n')).to.have.length(1)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450)
  })
})

describe("placing a visitor's order: no trigger function for a row without an agent (ADR 0053)", () => {
  it("the agents' page notice on orders runs only for rows that name an agent: a visitor's INSERT and its answer's UPDATE call no function", async () => {
    const defs = await app().db.sequelize.query<{ def: string }>(
      `SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid = 'orders'::regclass AND NOT t.tgisinternal AND p.proname = 'datahub_notify_agent_page'`,
      { type: QueryTypes.SELECT }
    )
    expect(defs, JSON.stringify(defs)).to.have.length(3)
    for (const { def } of defs) expect(def).to.match(/ WHEN \(.*agent_id IS NOT NULL/)
  })
})

describe("placing a visitor's order: one statement for the order and its payment (ADR 0046)", () => {
  beforeEach(resetDb)

  const order = (c: Client, pkgId: number, extra: Record<string, unknown> = {}) =>
    c.post('/api/orders', { packageId: pkgId, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN', ...extra })
  const kept = async () =>
    (
      await app().db.sequelize.query<{ orders: string; payments: string; entries: string }>(
        `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM payments) AS payments,
                (SELECT count(*) FROM audit_logs WHERE action = 'ORDER_CREATED') AS entries`,
        { type: QueryTypes.SELECT }
      )
    )[0]

  it("a payment that cannot be written keeps no order and no audit entry either, and its transaction id never becomes this browser's", async () => {
    const pkg = await createPackage()
    const someone = new Client()
    const theirs = await order(someone, pkg.id)
    expect(theirs.status, theirs.text).to.equal(201)
    const tid = theirs.body.payment.transactionId as string
    // The order row is gone, its payment stays: only the payment's unique index can refuse the id now.
    await app().db.sequelize.query('UPDATE payments SET order_id = NULL WHERE transaction_id = :tid RETURNING id', {
      replacements: { tid },
      type: QueryTypes.SELECT
    })
    await app().db.sequelize.query('DELETE FROM orders WHERE payment_transaction_id = :tid RETURNING id', { replacements: { tid }, type: QueryTypes.SELECT })
    const visitor = new Client()
    const again = await order(visitor, pkg.id, { transactionId: tid, recipientNumber: '0241234568', payerPhone: '0241234568' })
    expect(again.status, again.text).to.equal(409)
    expect(again.body.error).to.equal('Transaction ID already used. Please try again.')
    expect(await kept()).to.deep.equal({ orders: '0', payments: '1', entries: '1' })
    expect((await visitor.get(`/api/payment/status/${tid}`)).status).to.not.equal(200)
  })

  it('a settings save not heard of yet that leaves the platform open: the order is placed in a transaction that read the settings afresh', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    expect((await visitor.get('/api/settings')).body.platformOpen).to.equal(true)
    // A save on another instance, its NOTIFY not yet here: the row's version moves, the platform stays open.
    await app().db.sequelize.query(`UPDATE settings SET data = data WHERE id = 1 RETURNING id`, { type: QueryTypes.SELECT })
    const { out, sent } = await statementsOf(() => order(visitor, pkg.id))
    expect(out.status, out.text).to.equal(201)
    // The one statement wrote nothing (the version had moved); the transaction read the row and placed the order.
    expect(sent.filter((s) => /^SELECT xmin::text AS version, data FROM settings/.test(s)).length, sent.join('\n')).to.equal(1)
    expect(sent.filter((s) => /^START TRANSACTION/.test(s)).length, sent.join('\n')).to.equal(1)
    expect(await kept()).to.deep.equal({ orders: '1', payments: '1', entries: '1' })
  })

  it('the request limit is taken beside the package read: bad orders count, and a refused limit answers 429 whatever else was wrong', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    // Refused by the order's own check, before its package is read; the prompt's phone is still counted.
    const bad = () => visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '12', payerPhone: '0241234567', payerNetwork: 'MTN' })
    for (let i = 0; i < 10; i++) expect((await bad()).status).to.equal(400)
    const refused = await bad()
    expect(refused.status, refused.text).to.equal(429)
    expect(await kept()).to.deep.equal({ orders: '0', payments: '0', entries: '0' })
  })
})

describe('a wallet order over the reseller API: its Idempotency-Key read before anything is placed (ADR 0046, 0065)', () => {
  beforeEach(resetDb)

  it('a key used before answers with its order, even when this attempt is refused before it reads the key (platform closed since)', async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Replays' })).body.key
    const body = { packageId: pkg.id, recipientNumber: '0241112200' }
    const first = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'once' })
    expect(first.status, first.text).to.equal(201)
    expect((await (await adminClient()).put('/api/settings', { platformOpen: false })).status).to.equal(200)
    const again = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'once' })
    expect(again.status, again.text).to.equal(201)
    expect(again.headers.get('idempotent-replayed')).to.equal('true')
    expect(again.body.order.id).to.equal(first.body.order.id)
    // A new key is refused as the platform says, and nothing more is paid.
    expect((await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'twice' })).status).to.equal(403)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450)
  })
})

describe('placing an order: the settings read once, from the cache (ADR 0046)', () => {
  beforeEach(resetDb)

  it('while the settings listener is up, the cached copy is kept past the 5 s fallback: an order later on reads no settings (ADR 0053)', async function () {
    this.timeout(30_000)
    const pkg = await createPackage()
    const visitor = new Client()
    await visitor.get('/api/settings')
    expect(app().services.connections.isUp('datahub-settings-listener')).to.equal(true)
    await new Promise((r) => setTimeout(r, 5200))
    const { out, sent } = await statementsOf(() =>
      visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(
      sent.filter((s) => /^SELECT [^(]*FROM settings\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // A save still reaches the copy at once (its NOTIFY): the next visitor sees the platform closed.
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { platformOpen: false })).status).to.be.oneOf([200, 204])
    await new Promise((r) => setTimeout(r, 300))
    expect((await new Client().get('/api/settings')).body.platformOpen).to.equal(false)
  })

  it('a platform closed by a save this instance has not heard of yet refuses the very next order, visitor or wallet, and keeps nothing', async () => {
    const { pkg, a, portal } = await fundedAgent()
    const visitor = new Client()
    // The cached copy says open...
    expect((await visitor.get('/api/settings')).body.platformOpen).to.equal(true)
    // ...and a save that sends no notice closes the platform (another instance's, its NOTIFY not yet here).
    await app().db.sequelize.query(`UPDATE settings SET data = jsonb_set(data, '{platformOpen}', 'false') WHERE id = 1 RETURNING id`, {
      type: QueryTypes.SELECT
    })
    const bought = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(bought.status, bought.text).to.equal(403)
    expect(bought.body.error).to.equal('Purchases are temporarily disabled')
    const paid = await portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payFrom: 'wallet' })
    expect(paid.status, paid.text).to.equal(403)
    const [n] = await app().db.sequelize.query<{ orders: string; payments: string; entries: string }>(
      `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM payments) AS payments,
              (SELECT count(*) FROM wallet_entries WHERE type = 'ORDER') AS entries`,
      { type: QueryTypes.SELECT }
    )
    expect(n).to.deep.equal({ orders: '0', payments: '0', entries: '0' })
  })
})
