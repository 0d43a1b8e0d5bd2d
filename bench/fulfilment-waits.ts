// What PostgreSQL's busy backends wait on during bench/fulfilment.ts (--waits), and the cluster's WAL
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
    const r = await sampler.query(`SELECT CASE WHEN a.wait_event_type = 'Lock' AND a.wait_event = 'object' AND EXISTS (
          SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted AND l.locktype = 'object'
             AND l.classid = 'pg_database'::regclass AND l.objid = 0 AND l.database = 0)
        THEN 'Lock:object (notify)' ELSE coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') END AS w, count(*)::int AS n
      FROM pg_stat_activity a WHERE a.state = 'active' AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend' GROUP BY 1`)
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
