import type { PageContextServer } from 'vike/types'

type Reports = NonNullable<PageContextServer['services']>['commissionReports']
type R<K extends keyof Reports> = Reports[K] extends (...a: any[]) => Promise<infer T> ? T : never
export interface AnalyticsData {
  summary: R<'analyticsSummary'>
  analytics: R<'analytics'>
  leaderboard: R<'leaderboard'>
  networks: R<'networkAnalytics'>
  archived: R<'archived'>
}

// Everything the page shows first (all dates, grouped by day); the global guard keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<AnalyticsData | null> {
  const r = pageContext.services?.commissionReports
  if (pageContext.user?.role !== 'ADMIN' || !r) return null
  const [summary, analytics, leaderboard, networks, archived] = await Promise.all([
    r.analyticsSummary(),
    r.analytics({ groupBy: 'day', scope: 'all' }),
    r.leaderboard({ limit: 5 }),
    r.networkAnalytics({}),
    r.archived({ page: 1, limit: 20 })
  ])
  return { summary, analytics, leaderboard, networks, archived }
}
