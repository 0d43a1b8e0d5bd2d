import type { PageContextServer } from 'vike/types'

type Reports = NonNullable<PageContextServer['services']>['commissionReports']
export interface CommissionsData {
  summary: Awaited<ReturnType<Reports['summary']>> | null
  list: Awaited<ReturnType<Reports['list']>> | null
}

// Cards and the first page of current commissions; the global guard keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<CommissionsData> {
  const services = pageContext.services
  if (pageContext.user?.role !== 'ADMIN' || !services) return { summary: null, list: null }
  const [summary, list] = await Promise.all([services.commissionReports.summary({}), services.commissionReports.list({ page: 1, limit: 20 })])
  return { summary, list }
}
