import type { PageContextServer } from 'vike/types'
import type { AdminStatsService } from '../../../server/services/reports/admin-stats.ts'

export type Stats = Awaited<ReturnType<AdminStatsService['stats']>>
export type Analytics = Awaited<ReturnType<AdminStatsService['analytics']>>
export interface OverviewData {
  stats: Stats | null
  analytics: Analytics | null
  attentionCount?: number
  walletLiability?: { total: number; wallets: number } | null
}

// Figures for the default range (7 days) come with the page; the charts themselves load in the browser.
// They are the same for every admin, so they come from memory until a row they count changes (ADR 0048).
export async function data(pageContext: PageContextServer): Promise<OverviewData> {
  const s = pageContext.services
  if (pageContext.user?.role !== 'ADMIN' || !s) return { stats: null, analytics: null }
  return s.pageData.get('overview', async () => {
    const [stats, analytics, attentionCount, walletLiability] = await Promise.all([
      s.adminStats.stats(),
      s.adminStats.analytics('7d'),
      s.payments.attention.count(),
      s.wallet.liability()
    ])
    return { stats, analytics, attentionCount, walletLiability }
  })
}
