import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { down } from '../../models/migrations/422_agent_page_notice_by_column.ts'
import { agentPageNotices } from '../helpers/agent-page-notices.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * The agent's page notice reads `agent_id` from the row itself (migration 422, ADR 0083), not from the row as JSON: the
 * same notices for the same rows, on orders and wallets (`agent_id`) and on agents (their `id`, read by name as before).
 * The other page-notice tests (agent-page-notice-once, wallet-entry-page-notice) count its calls and still pass.
 */
describe("the agent's page notice: agent_id read as a column", () => {
  const db = () => app().db.sequelize
  beforeEach(resetDb)
  const heard = agentPageNotices()
  const noticesHeard = async () => (await heard()).sort()

  const definition = async () =>
    (await db().query<{ def: string }>("SELECT pg_get_functiondef('datahub_notify_agent_page'::regproc) AS def", { type: QueryTypes.SELECT }))[0]!.def

  it('reads agent_id as a column on its agent_id path, and keeps the by-name read for other columns', async () => {
    const def = await definition()
    const fast = def.slice(def.indexOf("IF TG_ARGV[0] = 'agent_id' THEN"), def.indexOf('RETURN NULL;'))
    expect(fast, def).to.include("'page:agent:' || OLD.agent_id").and.include("'page:agent:' || NEW.agent_id").and.not.include('to_jsonb')
    expect(def.slice(def.indexOf('RETURN NULL;') + 1)).to.include('to_jsonb(NEW) ->> TG_ARGV[0]')
  })

  it("tells the agents whose pages changed: an order inserted, moved to another agent, its wallet row, the agent's own row", async () => {
    const { agent: first } = await createAgent()
    const { agent: second } = await createAgent()
    await noticesHeard()
    const order = await createOrder({ agentId: first.id })
    expect(await noticesHeard()).to.deep.equal([`page:agent:${first.id}`])
    await db().query('UPDATE orders SET agent_id = :to WHERE id = :id', { replacements: { to: second.id, id: order.id } })
    expect(await noticesHeard()).to.deep.equal([`page:agent:${first.id}`, `page:agent:${second.id}`].sort())
    await db().query('INSERT INTO wallets (agent_id) VALUES (:id) ON CONFLICT (agent_id) DO NOTHING', { replacements: { id: second.id } })
    await db().query('UPDATE wallets SET balance_pesewas = balance_pesewas + 100 WHERE agent_id = :id', { replacements: { id: second.id } })
    expect(await noticesHeard()).to.deep.equal([`page:agent:${second.id}`, `page:agent:${second.id}`])
    await db().query("UPDATE agents SET name = 'Renamed' WHERE id = :id", { replacements: { id: first.id } })
    expect(await noticesHeard()).to.deep.equal([`page:agent:${first.id}`])
  })

  it('down reads every column by name again', async () => {
    const t = await db().transaction()
    try {
      await down({ context: (text) => db().query(text, { transaction: t }) })
      const [row] = await db().query<{ def: string }>("SELECT pg_get_functiondef('datahub_notify_agent_page'::regproc) AS def", {
        type: QueryTypes.SELECT,
        transaction: t
      })
      expect(row!.def).to.not.include('OLD.agent_id')
      expect(row!.def).to.include('to_jsonb(NEW) ->> TG_ARGV[0]')
    } finally {
      await t.rollback()
    }
  })
})
