import type { CopyCsv } from '../../lib/csv-copy.ts'

// The CSV export's one statement (ADR 0023); exports.ts streams it on the transaction's connection.

/**
 * Picks the exportable orders once (`fromWhere` is `FROM orders o ... WHERE ...`), records them in
 * order_exports at `stampSql` (an SQL literal: COPY takes no bind parameters) and writes them out as CSV.
 * The outer ORDER BY is the CTE's own order (PostgreSQL 17+ sees it): no second sort.
 */
export const exportCopySql = (csv: CopyCsv, fromWhere: string, stampSql: string): string => `COPY (
      WITH picked AS MATERIALIZED (
        SELECT o.id AS order_id, ${csv.select}
        ${fromWhere}
         ORDER BY o.id
      ), marked AS (
        INSERT INTO order_exports (order_id, exported_at) SELECT order_id, ${stampSql}::timestamptz FROM picked
      )
      SELECT ${csv.names} FROM picked ORDER BY order_id
    ) TO STDOUT WITH (${csv.options})`
