import type { MigrationFn } from '../migrate.ts'

// A transaction that queues a notice takes PostgreSQL's one notify lock for the whole cluster at commit and holds
// it across its WAL flush (async.c, PreCommit_Notify), so notifying writers commit one after another. Every
// customer's order, settlement and delivery wrote `orders` or `payments` and so sent 'page:overview' (migration
// 340): a quarter of the busy backends waited on that lock when paid orders were fulfilled (ADR 0059). The
// overview now lives a few seconds instead (page-data's lifetime for it) and is no longer told by these two
// tables. Every other notice stays: the agent's own page on an agent's order row, wallets, exports, users,
// agents, payment issues, refunds, gateway events, and every table's TRUNCATE.
const TABLES = ['orders', 'payments']

export const up: MigrationFn = async ({ context: sql }) => {
  for (const table of TABLES) await sql(`DROP TRIGGER ${table}_overview_page_notify ON ${table}`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  for (const table of TABLES) {
    await sql(`CREATE TRIGGER ${table}_overview_page_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_page_statement('overview')`)
  }
}
