import type { PageContextServer } from 'vike/types'

type Reports = NonNullable<PageContextServer['services']>['commissionReports']
export type LeaderboardData = Awaited<ReturnType<Reports['leaderboard']>>

// The default Top 10 over all time; the global guard keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<LeaderboardData | null> {
  const r = pageContext.services?.commissionReports
  if (pageContext.user?.role !== 'ADMIN' || !r) return null
  return r.leaderboard({ limit: 10 })
}
