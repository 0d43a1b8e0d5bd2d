import { QueryTypes, type Sequelize } from 'sequelize'
import { toEntry, type EntryRow, type EntryType, type WalletEntryRecord } from './ledger.ts'

// The wallet's reads for its pages and the admins: statements, balances, the shop's liability. The
// money movements keep their statements in ledger.ts and locked-balance.ts (one place per movement).

/** A statement's filter, checked at the edge: a day is 'YYYY-MM-DD', `to` inclusive. */
export interface EntryFilter {
  type: EntryType | null
  from: string | null
  to: string | null
}

type Raw = Record<string, any>

function whereOf(f: EntryFilter): string {
  const where = ['agent_id = :agentId']
  if (f.type) where.push('type = :type')
  if (f.from) where.push('created_at >= :from::date')
  // 'to' is a whole day, inclusive
  if (f.to) where.push(`created_at < :to::date + interval '1 day'`)
  return where.join(' AND ')
}

export function createWalletQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    async countEntries(agentId: number, f: EntryFilter): Promise<number> {
      const [row] = await q(`SELECT count(*) AS n FROM wallet_entries WHERE ${whereOf(f)}`, { ...f, agentId })
      return Number(row!.n)
    },

    /** Newest first; `limit` 100000 for the CSV's every entry. */
    async entries(agentId: number, f: EntryFilter, page: { limit: number; offset: number }): Promise<EntryRow[]> {
      const rows = await q<WalletEntryRecord>(
        `SELECT * FROM wallet_entries WHERE ${whereOf(f)} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
        {
          ...f,
          agentId,
          ...page
        }
      )
      return rows.map(toEntry)
    },

    async agent(id: number): Promise<{ id: number; name: string; phone: string } | null> {
      const [row] = await q<{ id: number; name: string; phone: string }>('SELECT id, name, phone FROM agents WHERE id = :id', { id })
      return row ?? null
    },

    /** Every wallet's balance, by agent id. */
    async balances(): Promise<{ agentId: number; balancePesewas: number }[]> {
      const rows = await q('SELECT agent_id, balance_pesewas FROM wallets', {})
      return rows.map((r) => ({ agentId: Number(r.agent_id), balancePesewas: Number(r.balance_pesewas) }))
    },

    /** What all wallets hold together, and how many hold anything. */
    async liability(): Promise<{ totalPesewas: number; wallets: number }> {
      const [row] = await q('SELECT sum(balance_pesewas) AS total, count(*) FILTER (WHERE balance_pesewas > 0) AS n FROM wallets', {})
      return { totalPesewas: Number(row?.total ?? 0), wallets: Number(row?.n ?? 0) }
    }
  }
}
