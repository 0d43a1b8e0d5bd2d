// What PostgreSQL sees during bench/fulfilment.ts: its busy backends' waits (--waits), the statements sent (--statements), their time (--pg-stats), the WAL
// flushes: kept apart from the bench's rounds so each file holds one kind of figure.
import pg from 'pg'

/**
 * Samples the busy client backends' wait events every 10 ms on a connection of its own: over the whole
 * run (`waits`) and per round (`roundWaits`, cleared by the caller at each round's start).
 * 'Lock:object (notify)' is a wait for the lock PreCommit_Notify takes (an object lock on pg_database, oid 0).
 */
export async function startWaitSampler(connectionString: string) {
  const waits = new Map<string, number>()
  const roundWaits = new Map<string, number>()
  let sampler: pg.Client | undefined = new pg.Client({ connectionString })
  let sampling: NodeJS.Timeout | undefined
  await sampler.connect()
  const tick = async () => {
    if (!sampler) return
    // By name: parsed and planned once, not every 10 ms on a backend whose CPU the bench counts as PostgreSQL's.
    const r = await sampler.query({
      name: 'fulfilment-waits',
      text: `SELECT CASE WHEN a.wait_event_type = 'Lock' AND a.wait_event = 'object' AND EXISTS (
          SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted AND l.locktype = 'object'
             AND l.classid = 'pg_database'::regclass AND l.objid = 0 AND l.database = 0)
        THEN 'Lock:object (notify)' ELSE coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') END AS w, count(*)::int AS n
      FROM pg_stat_activity a WHERE a.state = 'active' AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend' GROUP BY 1`
    })
    for (const row of r.rows) {
      waits.set(row.w, (waits.get(row.w) ?? 0) + row.n)
      roundWaits.set(row.w, (roundWaits.get(row.w) ?? 0) + row.n)
    }
    if (sampler) sampling = setTimeout(() => tick().catch(() => {}), 10)
  }
  void tick()
  return {
    waits,
    roundWaits,
    async stop() {
      clearTimeout(sampling)
      const ended = sampler
      sampler = undefined
      await ended?.end()
    }
  }
}

/** The most frequent waits of a sample map, as shares of its samples. */
export const topWaits = (m: Map<string, number>) => {
  const samples = [...m.values()].reduce((a, b) => a + b, 0)
  return `${samples} backend samples: ${[...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([w, n]) => `${w} ${((n / samples) * 100).toFixed(0)}%`)
    .join(', ')}`
}

/** WAL flushes and writes in the cluster so far (the cumulative statistics). */
export async function walFlushes(select: (sql: string) => Promise<{ fsyncs: string; writes: string }[]>) {
  // A backend gone idle reports its statistics up to 10 s later (PGSTAT_IDLE_INTERVAL): wait them out.
  await new Promise((r) => setTimeout(r, 11_000))
  const [row] = await select(`SELECT sum(fsyncs) AS fsyncs, sum(writes) AS writes FROM pg_stat_io WHERE object = 'wal'`)
  return { fsyncs: Number(row!.fsyncs), writes: Number(row!.writes) }
}

/** With --pg-stats: PostgreSQL's own time by statement shape over `orders` orders (pg_stat_statements, planning included). */
export async function printPgStats(q: <T extends object>(sql: string) => Promise<T[]>, orders: number): Promise<void> {
  const rows = await q<{ calls: string; plans: string; plan: number; exec: number; blks: string; query: string }>(
    `SELECT calls, plans, total_plan_time AS plan, total_exec_time AS exec, shared_blks_hit + shared_blks_read AS blks, query FROM pg_stat_statements ORDER BY total_plan_time + total_exec_time DESC LIMIT 40`
  )
  const total = rows.reduce((a, r) => a + r.plan + r.exec, 0)
  console.log(
    `  PostgreSQL time by statement (pg_stat_statements, top 40: ${((total * 1000) / orders).toFixed(0)} us per order; per order: calls, plans, plan us, exec us, buffers touched per call):`
  )
  for (const r of rows)
    console.log(
      `    ${(Number(r.calls) / orders).toFixed(2).padStart(6)} ${(Number(r.plans) / orders).toFixed(2).padStart(5)} ${((r.plan * 1000) / orders).toFixed(0).padStart(5)} ${((r.exec * 1000) / orders).toFixed(0).padStart(6)} ${(Number(r.blks) / Math.max(1, Number(r.calls))).toFixed(0).padStart(5)}  ${r.query.replace(/\s+/g, ' ').slice(0, 110)}`
    )
}

/**
 * With --statements: every statement either pool sends while on, by its text (Sequelize and graphile-worker
 * both sit on pg.Client), printed per order, most frequent first.
 */
export function countStatements() {
  const statements = new Map<string, number>()
  let counting = false
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown
  ;(pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...a: unknown[]) {
    if (counting) {
      const c = a[0] as string | { text?: string; name?: string }
      // Sequelize inlines its values: fold literals so one statement shape counts once.
      const text = (typeof c === 'string' ? c : (c?.text ?? c?.name ?? '?'))
        .replace(/'(?:[^']|'')*'/g, "'?'")
        .replace(/\b\d+\b/g, 'N')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 120)
      statements.set(text, (statements.get(text) ?? 0) + 1)
    }
    return query.apply(this, a)
  }
  return {
    on: () => {
      counting = true
    },
    off: () => {
      counting = false
    },
    print(orders: number) {
      const total = [...statements.values()].reduce((a, b) => a + b, 0)
      console.log(`  statements sent: ${(total / orders).toFixed(1)} per order (${total}; the bench's own progress polls included)`)
      for (const [text, n] of [...statements].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`    ${(n / orders).toFixed(2).padStart(6)}  ${text}`)
    }
  }
}

/** The tables a paid order's fulfilment updates, whose share of HOT updates --waits prints. */
export const HOT_TABLES = ['orders', 'payments', 'sms_outbox'] as const

/**
 * The cluster's WAL records and bytes so far, and per table of HOT_TABLES its updates and those that were HOT (no
 * new index entry): read after `walFlushes`, which waits out the backends' reporting delay.
 */
export async function walAndUpdates(select: (sql: string) => Promise<Record<string, string>[]>) {
  const [wal] = await select('SELECT wal_records AS records, wal_bytes AS bytes FROM pg_stat_wal')
  const tables = await select(
    `SELECT relname AS name, n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname IN (${HOT_TABLES.map((t) => `'${t}'`).join(', ')})`
  )
  return {
    records: Number(wal!.records),
    bytes: Number(wal!.bytes),
    updates: Object.fromEntries(tables.map((t) => [t.name!, { upd: Number(t.upd), hot: Number(t.hot) }]))
  }
}

/** What a round wrote, per order: WAL records and bytes, and each table's updates with the HOT share. */
export function walAndUpdatesText(a: Awaited<ReturnType<typeof walAndUpdates>>, b: Awaited<ReturnType<typeof walAndUpdates>>, orders: number) {
  const hot = HOT_TABLES.map((t) => {
    const upd = (b.updates[t]?.upd ?? 0) - (a.updates[t]?.upd ?? 0)
    const h = (b.updates[t]?.hot ?? 0) - (a.updates[t]?.hot ?? 0)
    return `${t} ${(upd / orders).toFixed(2)} (${upd ? ((h / upd) * 100).toFixed(0) : '-'}% HOT)`
  })
  return `${((b.records - a.records) / orders).toFixed(1)} WAL records and ${((b.bytes - a.bytes) / orders / 1024).toFixed(2)} KB per order; updates per order: ${hot.join(', ')}`
}
