// --wal-relations for bench/fulfilment.ts: the round's WAL records and bytes per order, by the relation each record
// writes (its first block reference; commits and other records without one under "(no relation)"), read with
// pg_walinspect between two LSNs. Which index of which table a fulfilled order pays for, and how much.

type Select = <T extends object>(sql: string, replacements?: Record<string, unknown>) => Promise<T[]>

export interface WalByRelation {
  name: string
  kind: string
  records: number
  bytes: number
}

/** The WAL's insert position now (installs pg_walinspect, which the reading needs, on the first call). */
export async function walPosition(q: Select): Promise<string> {
  await q('CREATE EXTENSION IF NOT EXISTS pg_walinspect')
  const [row] = await q<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')
  return row!.lsn
}

/**
 * Records and bytes (record_length, full-page images included) from `start` to `end`, per relation. The relation is
 * named from its current file node: read it after the round, before the next TRUNCATE gives the tables new ones.
 */
export async function walByRelation(q: Select, start: string, end: string): Promise<WalByRelation[]> {
  return q<WalByRelation>(
    `WITH rel AS (SELECT relname, pg_relation_filenode(oid) AS node FROM pg_class WHERE pg_relation_filenode(oid) IS NOT NULL),
     w AS (
       SELECT substring(block_ref FROM 'rel [0-9]+/[0-9]+/([0-9]+)')::oid AS node, resource_manager, record_length
         FROM pg_get_wal_records_info(CAST(:start AS pg_lsn), CAST(:end AS pg_lsn)))
     SELECT COALESCE(c.relname, CASE WHEN w.node IS NULL THEN '(no relation)' ELSE '(other)' END) AS name,
            string_agg(DISTINCT w.resource_manager, '+') AS kind, count(*)::int AS records, sum(w.record_length)::int AS bytes
       FROM w LEFT JOIN rel c ON c.node = w.node
      GROUP BY 1 ORDER BY 4 DESC`,
    { start, end }
  )
}

/** One line per relation, per order, largest first: records, bytes and the WAL resource managers that wrote them. */
export function walByRelationText(rows: WalByRelation[], orders: number): string {
  const total = rows.reduce((a, r) => ({ records: a.records + r.records, bytes: a.bytes + r.bytes }), { records: 0, bytes: 0 })
  const lines = rows.map(
    (r) => `    ${(r.records / orders).toFixed(2).padStart(6)} records ${(r.bytes / orders).toFixed(0).padStart(6)} B  ${r.name} (${r.kind})`
  )
  return [`  WAL per order by relation: ${(total.records / orders).toFixed(1)} records, ${(total.bytes / orders).toFixed(0)} B`, ...lines].join('\n')
}
