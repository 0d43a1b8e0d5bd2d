import type { PageContextServer } from 'vike/types'
import type { PublicProductView } from '../../server/services/vouchers/index.ts'

export interface CheckersData {
  products: PublicProductView[]
  card: boolean
}

export async function data(pageContext: PageContextServer): Promise<CheckersData> {
  const services = pageContext.services
  if (!services) return { products: [], card: false }
  return { products: await services.vouchers.products.listPublic(pageContext.user), card: (await services.settings.get()).paymentGateway === 'paystack' }
}
