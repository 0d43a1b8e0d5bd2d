import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { down } from '../../models/migrations/412_wallet_entries_agent_page_on_update.ts'
import { post } from '../../server/services/wallet/ledger.ts'
import { agentPageNotices } from '../helpers/agent-page-notices.ts'
import { createAgent } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * A wallet movement's agent page notice (migration 412, ADR 0078): the entry and its balance are written in one
 * transaction for one agent, so the wallets row's trigger alone queues the notice; the entry's insert calls no
 * function, and the agent still hears exactly one notice at commit. Calls are counted by PostgreSQL
 * (`pg_stat_xact_user_functions`, the transaction's own), never timed.
 */
describe("a wallet movement: one page-notice call, the agent's notice heard", () => {
  const db = () => app().db.sequelize
  beforeEach(resetDb)
  const noticesHeard = agentPageNotices()

  /** The ledger's post in one transaction: how often it called the page-notice function. */
  async function callsOfPost(agentId: number, amountPesewas: number): Promise<number> {
    return db().transaction(async (t) => {
      await db().query("SET LOCAL track_functions = 'pl'", { transaction: t })
      // The view holds the session's counts not yet flushed, an earlier transaction's too: the difference is this one's.
      const calls = async () => {
        const [row] = await db().query<{ calls: string }>(
          "SELECT coalesce(sum(calls), 0)::text AS calls FROM pg_stat_xact_user_functions WHERE funcname = 'datahub_notify_agent_page'",
          { type: QueryTypes.SELECT, transaction: t }
        )
        return Number(row!.calls)
      }
      const before = await calls()
      const moved = await post(db(), { agentId, type: amountPesewas > 0 ? 'TOPUP' : 'ADJUSTMENT', amountPesewas, reason: 'test' }, t)
      expect(moved.entry).not.to.equal(null)
      return (await calls()) - before
    })
  }

  it('a credit and a debit each call the function once (the wallets row), and the agent hears one notice for each', async () => {
    const { agent } = await createAgent()
    // The agent's wallets row made by a first movement (its INSERT notifies too).
    await callsOfPost(agent.id as number, 100)
    await noticesHeard()
    expect(await callsOfPost(agent.id as number, 1000), 'the wallets row only').to.equal(1)
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
    expect(await callsOfPost(agent.id as number, -400), 'the wallets row only').to.equal(1)
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
  })

  it("an entry's actor unlinked (its one allowed update) still tells the agent's page", async () => {
    const { agent } = await createAgent()
    await db().transaction((t) => post(db(), { agentId: agent.id as number, type: 'TOPUP', amountPesewas: 500, reason: 'test', actorUserId: null }, t))
    await noticesHeard()
    await db().query('UPDATE wallet_entries SET actor_user_id = NULL WHERE agent_id = :id', { replacements: { id: agent.id } })
    expect(await noticesHeard()).to.deep.equal([`page:agent:${agent.id}`])
  })

  it('down puts the insert and delete back on the trigger', async () => {
    const t = await db().transaction()
    try {
      await down({ context: (text) => db().query(text, { transaction: t }) })
      const [row] = await db().query<{ def: string }>(
        "SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'wallet_entries_agent_page_notify'",
        { type: QueryTypes.SELECT, transaction: t }
      )
      expect(row!.def).to.match(
        /AFTER INSERT OR DELETE OR UPDATE ON public\.wallet_entries FOR EACH ROW EXECUTE FUNCTION datahub_notify_agent_page\('agent_id'\)/
      )
    } finally {
      await t.rollback()
    }
  })
})
