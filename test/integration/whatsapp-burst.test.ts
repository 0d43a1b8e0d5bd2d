import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { signBody } from '../../server/services/whatsapp/webhook.ts'
import { graphEnv, inbound, startFakeGraph, type FakeGraph } from '../fakes/whatsapp-graph.ts'
import { createPackage } from '../helpers/factories.ts'
import { bootInstance } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'

const APP_SECRET = 'wa-app-secret-for-tests'

// The webhook records each message and queues one job per chat; this instance runs real workers on a
// two-connection pool, so a turn that waited for a second connection while holding one would stall.
describe('WhatsApp: a burst of messages on a small pool (one queued job per chat)', function () {
  this.timeout(90_000)
  let graph: FakeGraph
  let wa: Running
  const sql = <T extends object = any>(text: string) => app().db.sequelize.query<T>(text, { type: QueryTypes.SELECT })
  const post = (body: unknown) => {
    const raw = JSON.stringify(body)
    return fetch(`${wa.url}/api/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signBody(raw, APP_SECRET) },
      body: raw
    })
  }

  before(async () => {
    await resetDb()
    await app().db.models.Package.destroy({ where: {} })
    graph = await startFakeGraph()
    wa = await bootInstance({
      ...graphEnv(graph, APP_SECRET),
      DB_POOL_MAX: 2,
      JOBS_ENABLED: true,
      QUEUE_CONCURRENCY: 4
    })
  })
  after(async () => {
    await wa?.stop()
    await graph?.close()
  })

  it('50 messages across 10 chats, each delivered twice: every message answered once, in order per chat, nothing stalls', async () => {
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500 })
    const steps = [
      { text: 'hi' },
      { replyId: 'menu:buy', title: 'Buy data' },
      { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' as const },
      { replyId: `pkg:${pkg.id}`, title: '1.0GB', kind: 'list_reply' as const },
      { replyId: 'to:other', title: 'Another number' }
    ]
    const chats = Array.from({ length: 10 }, (_, i) => `2332411900${String(i).padStart(2, '0')}`)
    // Chats in parallel; within a chat Meta delivers in order, and each message comes twice at once.
    const answers = await Promise.all(
      chats.map(async (from) => {
        const seen: { received: number; duplicates: number }[] = []
        for (const [i, step] of steps.entries()) {
          const body = inbound(from, { id: `wamid.BURST.${from}.${i}`, ...step })
          const twice = await Promise.all([post(body), post(body)])
          for (const res of twice) {
            expect(res.status).to.equal(200)
            seen.push(await res.json())
          }
        }
        return seen
      })
    )
    const all = answers.flat()
    expect(all.reduce((n, a) => n + a.received, 0)).to.equal(50)
    expect(all.reduce((n, a) => n + a.duplicates, 0)).to.equal(50)

    // The workers answer and send; wait until nothing is left to do.
    const deadline = Date.now() + 60_000
    for (;;) {
      const [left] = await sql<{ n: number }>(
        `SELECT (SELECT count(*) FROM whatsapp_messages WHERE (direction = 'in' AND handled_at IS NULL) OR status = 'queued')::int
              + (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier LIKE 'whatsapp.%')::int AS n`
      )
      if (left!.n === 0) break
      if (Date.now() > deadline) throw new Error(`stalled with ${left!.n} messages or jobs left`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const expected = [
      'Hello! Welcome to Data Hub. Buy data bundles right here in the chat.',
      'What would you like to do?',
      'Choose the network of the number that gets the data.',
      'MTN bundles: choose one.',
      '1.0GB MTN for GHS 5.00. Who gets the data?',
      'Type the number that gets the data (like 0241234567).'
    ]
    for (const from of chats) expect(graph.texts(from), from).to.deep.equal(expected)
    const [counts] = await sql<{ inbound: number; out: number }>(
      `SELECT count(*) FILTER (WHERE direction = 'in')::int AS inbound, count(*) FILTER (WHERE direction = 'out')::int AS out FROM whatsapp_messages`
    )
    expect(counts).to.deep.equal({ inbound: 50, out: 60 })
    expect(graph.requests.filter((r) => r.status !== 200)).to.deep.equal([])

    // Each chat left two named queues behind; housekeeping drops the idle ones.
    const queues = () => sql<{ n: number }>(`SELECT count(*)::int AS n FROM graphile_worker._private_job_queues WHERE queue_name LIKE 'wa-%'`)
    expect((await queues())[0]!.n).to.equal(20)
    await wa.services.queue.dropIdleQueues()
    expect((await queues())[0]!.n).to.equal(0)
  })
})
