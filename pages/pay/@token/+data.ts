import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import type { PayLinkView } from '../../../server/services/whatsapp/index.ts'

export interface PayLinkData {
  view: Omit<PayLinkView, 'transactionId'>
  method: 'card' | 'momo'
}

// /pay/<token>: a WhatsApp payment link. The order comes from the server by the token alone; an unknown token is 404.
export async function data(pageContext: PageContextServer): Promise<PayLinkData> {
  const services = pageContext.services
  if (!services) throw render(404)
  const found = await services.whatsapp.payView(pageContext.routeParams.token)
  if (!found) throw render(404, 'This payment link is not valid')
  const { transactionId: _kept, ...view } = found
  return { view, method: await services.payments.methodFor({}) }
}
