// What the agent's page notice costs per row, on copies of `orders` (temporary tables, rolled back): no trigger, the
// function as installed (`datahub_notify_agent_page`, migration 422: agent_id read as a column), and the same notices
// with the agent's id read from the row as JSON (migration 340's body, as a temporary function). Each INSERT writes
// `rows` rows with distinct agents in one statement; the three kinds alternate. Prints figures; asserts nothing.
//
//   node_modules/.bin/node bench/page-notice-cost.ts postgres://user:password@127.0.0.1:port/database [rows, 20000] [rounds, 3]
import pg from 'pg'

const rows = Number(process.argv[3] ?? 20_000)
const rounds = Number(process.argv[4] ?? 3)
const c = new pg.Client({ connectionString: process.argv[2] })
await c.connect()
for (const t of ['none', 'installed', 'by_name']) await c.query(`CREATE TEMP TABLE notice_${t} (LIKE orders INCLUDING DEFAULTS)`)
await c.query(`CREATE FUNCTION pg_temp.notify_by_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('bench_page_notice', 'page:agent:' || (to_jsonb(OLD) ->> TG_ARGV[0])) WHERE (to_jsonb(OLD) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('bench_page_notice', 'page:agent:' || (to_jsonb(NEW) ->> TG_ARGV[0])) WHERE (to_jsonb(NEW) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  RETURN NULL;
END $$`)
await c.query(
  `CREATE TRIGGER n AFTER INSERT ON notice_installed FOR EACH ROW WHEN (NEW.agent_id IS NOT NULL) EXECUTE FUNCTION datahub_notify_agent_page('agent_id')`
)
await c.query(
  `CREATE TRIGGER n AFTER INSERT ON notice_by_name FOR EACH ROW WHEN (NEW.agent_id IS NOT NULL) EXECUTE FUNCTION pg_temp.notify_by_name('agent_id')`
)
const insert = (t: string) => `INSERT INTO notice_${t} (id, agent_id, package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas,
    payment_transaction_id, channel, payment_status, created_at, updated_at)
  SELECT g, 1000000 + g, 1, 'MTN 1GB', '0240000000', 'MTN', 1024, 500, 'bench' || g, 'api', 'SUCCESS', now(), now() FROM generate_series(1, ${rows}) g`
const us: Record<string, number[]> = {}
for (let r = 0; r < rounds; r++)
  for (const t of ['none', 'installed', 'by_name']) {
    await c.query('BEGIN')
    const start = process.hrtime.bigint()
    await c.query(insert(t))
    ;(us[t] ??= []).push(Number(process.hrtime.bigint() - start) / 1000 / rows)
    await c.query('ROLLBACK')
  }
await c.end()
for (const [t, xs] of Object.entries(us)) console.log(`${t.padEnd(10)} ${xs.map((x) => x.toFixed(1)).join(' / ')} us per row inserted`)
