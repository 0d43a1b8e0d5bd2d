import { Router } from 'express'
import { AppError } from '../../../lib/errors.ts'
import type { AuditLogView } from '../../../services/audit/logs.ts'
import type { Services } from '../../../services/index.ts'
import type { CsvColumn } from '../../../lib/csv.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'
import { sendCsv, sendJsonArray, today } from '../../insight-export.ts'
import { valid } from '../../validate.ts'
import { exportBody, listQuery } from './schema.ts'

const COLUMNS: CsvColumn<AuditLogView>[] = [
  { header: 'ID', kind: 'int', value: (l) => l.id },
  { header: 'Timestamp', kind: 'datetime', value: (l) => l.timestamp },
  { header: 'User ID', kind: 'int', value: (l) => l.userId },
  { header: 'User Email', value: (l) => l.user?.email },
  { header: 'User Role', value: (l) => l.user?.role },
  { header: 'Action', value: (l) => l.action },
  { header: 'Resource', value: (l) => l.resource },
  { header: 'Resource ID', value: (l) => l.resourceId },
  { header: 'Severity', value: (l) => l.severity },
  { header: 'IP Address', value: (l) => l.ipAddress },
  { header: 'Details', value: (l) => JSON.stringify(l.details) }
]

/** Mounted at /api/admin next to other admin routers, so each route carries its own guard. */
export function auditLogsRouter(services: Services) {
  const r = Router()

  r.get('/audit-logs', requireAdmin, async (req, res) => {
    res.json(await services.auditLogs.list(valid(listQuery, req.query)))
  })

  r.get('/audit-logs/actions', requireAdmin, async (_req, res) => {
    res.json({ actions: await services.auditLogs.actions() })
  })

  r.post('/audit-logs/export', requireAdmin, async (req, res) => {
    const { format, rows } = await services.auditLogs.startExport(valid(exportBody, req.body), ctxOf(req))
    const name = `audit_logs_${today()}.${format}`
    if (format === 'json') await sendJsonArray(req, res, name, rows())
    else await sendCsv(req, res, name, COLUMNS, rows())
  })

  // The trail is append-only: say so plainly instead of a bare 404.
  r.all(['/audit-logs', '/audit-logs/{*rest}'], requireAdmin, (req, _res, next) => {
    next(new AppError(405, 'Audit logs cannot be edited or deleted'))
  })

  return r
}
