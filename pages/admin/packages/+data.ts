import type { PageContextServer } from 'vike/types'
import type { AdminPackage } from '../../../server/services/packages/admin.ts'

// Every package, inactive ones included; the global guard already keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<{ packages: AdminPackage[] }> {
  if (pageContext.user?.role !== 'ADMIN' || !pageContext.services) return { packages: [] }
  return { packages: await pageContext.services.packagesAdmin.listAll() }
}
