import { expect } from 'chai'
import pg from 'pg'
import { agentPageNotices } from '../helpers/agent-page-notices.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * The agent's page notice on orders (migrations 340, 375, 395): an UPDATE of a row version its own
 * transaction wrote, for the same agent, calls no function (that write already queued the notice), and
 * every agent whose page changed still hears one notice at commit. Calls are counted by PostgreSQL
 * (`pg_stat_xact_user_functions`, this transaction's own), never timed.
 */
describe("an agent's order written twice in one transaction: one page notice, one function call", () => {
  let writer: pg.Client
  beforeEach(async () => {
    await resetDb()
    writer = new pg.Client({ connectionString: app().db.url })
    await writer.connect()
  })
  afterEach(async () => {
    await writer.end()
  })
  const noticesHeard = agentPageNotices()

  /** Runs `writes` in one transaction and answers how often it called the page-notice function. */
  async function callsIn(writes: () => Promise<unknown>): Promise<number> {
    await writer.query('BEGIN')
    await writer.query("SET LOCAL track_functions = 'pl'")
    await writes()
    const { rows } = await writer.query<{ calls: string }>(
      "SELECT coalesce(sum(calls), 0)::text AS calls FROM pg_stat_xact_user_functions WHERE funcname = 'datahub_notify_agent_page'"
    )
    await writer.query('COMMIT')
    return Number(rows[0]!.calls)
  }

  /** A copy of `orderId` inserted in the writer's transaction, PENDING, for `agentId`: its id. */
  async function insertCopy(orderId: number, agentId: number): Promise<number> {
    const { rows } = await writer.query<{ id: number }>(
      `INSERT INTO orders SELECT (jsonb_populate_record(NULL::orders, to_jsonb(o) || jsonb_build_object(
         'id', nextval(pg_get_serial_sequence('orders', 'id')), 'agent_id', $2::int, 'payment_status', 'PENDING',
         'payment_transaction_id', 'copy-' || o.payment_transaction_id))).*
       FROM orders o WHERE o.id = $1 RETURNING id`,
      [orderId, agentId]
    )
    return rows[0]!.id
  }

  it('inserted and paid in one transaction (a wallet order): the UPDATE calls nothing, and the agent hears one notice', async () => {
    const { agent } = await createAgent()
    const template = await createOrder({ agentId: agent.id })
    await noticesHeard()
    const calls = await callsIn(async () => {
      const id = await insertCopy(template.id as number, agent.id as number)
      await writer.query("UPDATE orders SET payment_status = 'SUCCESS', delivery_status = 'QUEUED' WHERE id = $1", [id])
    })
    expect(calls, 'the INSERT only').to.equal(1)
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
  })

  it('updated in a later transaction: the function runs and the agent hears it', async () => {
    const { agent } = await createAgent()
    const order = await createOrder({ agentId: agent.id })
    await noticesHeard()
    const calls = await callsIn(() => writer.query("UPDATE orders SET delivery_status = 'QUEUED' WHERE id = $1", [order.id]))
    expect(calls).to.equal(1)
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
  })

  it('moved to another agent in the transaction that inserted it: both agents hear it', async () => {
    const { agent: first } = await createAgent()
    const { agent: second } = await createAgent()
    const template = await createOrder({ agentId: first.id })
    await noticesHeard()
    const calls = await callsIn(async () => {
      const id = await insertCopy(template.id as number, first.id as number)
      await writer.query('UPDATE orders SET agent_id = $2 WHERE id = $1', [id, second.id])
    })
    expect(calls).to.equal(2)
    expect((await noticesHeard()).sort()).to.deep.equal([`page:agent:${first.id}`, `page:agent:${second.id}`].sort())
  })

  it('written in a savepoint and updated after it: the function runs again (the savepoint has its own id), one notice', async () => {
    const { agent } = await createAgent()
    const template = await createOrder({ agentId: agent.id })
    await noticesHeard()
    const calls = await callsIn(async () => {
      await writer.query('SAVEPOINT s')
      const id = await insertCopy(template.id as number, agent.id as number)
      await writer.query('RELEASE SAVEPOINT s')
      await writer.query("UPDATE orders SET payment_status = 'SUCCESS' WHERE id = $1", [id])
    })
    expect(calls).to.equal(2)
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
  })
})
