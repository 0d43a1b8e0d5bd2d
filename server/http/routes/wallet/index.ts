import { Router } from 'express'
import { toCsv } from '../../../lib/csv.ts'
import type { Services } from '../../../services/index.ts'
import type { EntryView } from '../../../services/wallet/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin, requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { orderLimit } from '../orders/limits.ts'
import { callbackUrlOf } from '../orders/payer.ts'
import { adjustBody, statementQuery, topupBody } from './schema.ts'

const CSV_COLUMNS = [
  { header: 'Date', kind: 'datetime' as const, value: (e: EntryView) => e.createdAt },
  { header: 'Type', value: (e: EntryView) => e.type },
  { header: 'Amount (GHS)', kind: 'money' as const, value: (e: EntryView) => e.amount },
  { header: 'Balance after (GHS)', kind: 'money' as const, value: (e: EntryView) => e.balanceAfter },
  { header: 'Reason', value: (e: EntryView) => e.reason },
  { header: 'Order', kind: 'int' as const, value: (e: EntryView) => e.orderId },
  { header: 'Transaction ID', value: (e: EntryView) => e.transactionId }
]

const query = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => typeof v === 'string'))
const statementOf = (q: Record<string, unknown>) => valid(statementQuery, query(q))

/** The agent's wallet (/api/wallet) and the admins' view of any agent's wallet (/api/wallet/agents/:id). */
export function walletRouter(services: Services) {
  const r = Router()
  const agent = requireRole('AGENT')
  const { env } = services.deps

  r.get('/', agent, async (req, res) => {
    res.json(await services.wallet.mine(ctxOf(req)))
  })

  // Shop earnings: available balance and the latest entries.
  r.get('/earnings', agent, async (req, res) => {
    res.json(await services.earnings.mine(ctxOf(req), Number(req.query.limit) || 50))
  })

  r.get('/statement', agent, async (req, res) => {
    res.json(await services.wallet.statement(statementOf(req.query), ctxOf(req)))
  })

  r.get('/statement.csv', agent, async (req, res) => {
    const rows = await services.wallet.statementEntries(statementOf(req.query), ctxOf(req))
    res.setHeader('Content-Type', 'text/csv; charset=utf-8')
    res.setHeader('Content-Disposition', `attachment; filename="wallet-statement-${new Date().toISOString().slice(0, 10)}.csv"`)
    res.send(toCsv(CSV_COLUMNS, rows))
  })

  r.post('/topup', agent, orderLimit(services), async (req, res) => {
    const topup = valid(topupBody, req.body && typeof req.body === 'object' ? req.body : {})
    res.status(201).json(await services.wallet.requestTopup({ ...topup, callbackUrl: callbackUrlOf(req, env) }, ctxOf(req)))
  })

  r.get('/liability', requireAdmin, async (_req, res) => {
    res.json(await services.wallet.liability())
  })

  r.get('/balances', requireAdmin, async (_req, res) => {
    res.json(await services.wallet.allBalances())
  })

  r.get('/agents/:id', requireAdmin, async (req, res) => {
    res.json(await services.wallet.agentStatement(agentIdOf(req.params.id), statementOf(req.query)))
  })

  r.post('/agents/:id/adjust', requireAdmin, async (req, res) => {
    res.json(await services.wallet.adjust(agentIdOf(req.params.id), valid(adjustBody, req.body), ctxOf(req)))
  })

  return r
}

function agentIdOf(raw: unknown): number {
  const id = Number(raw)
  // An id that cannot exist reads as a missing agent, not a server error.
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : 0
}
