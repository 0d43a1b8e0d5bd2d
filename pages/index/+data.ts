import type { PageContextServer } from 'vike/types'
import type { TrustFigures } from '../../server/services/reports/public-stats.ts'

export type HomeData = TrustFigures

// Only figures the orders support: a fresh shop claims no users and no success rate.
export async function data(pageContext: PageContextServer): Promise<HomeData> {
  const services = pageContext.services
  if (!services) return { customers: null, successRate: null }
  return services.publicStats.trustFigures()
}
