import type { PageContextServer } from 'vike/types'
import type { AdminPackage } from '../../../server/services/packages/admin.ts'
import type { TierGrid } from './TierPriceGrid.tsx'

// Every package, inactive ones included, and their prices per tier; the global guard already keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<{ packages: AdminPackage[]; tierGrid: TierGrid | null }> {
  if (pageContext.user?.role !== 'ADMIN' || !pageContext.services) return { packages: [], tierGrid: null }
  const [packages, tierGrid] = await Promise.all([pageContext.services.packagesAdmin.listAll(), pageContext.services.tiers.grid()])
  return { packages, tierGrid }
}
