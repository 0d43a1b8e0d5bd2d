import type { PageContextServer } from 'vike/types'

export interface AfaData {
  providerLabel: string
}

export function data(pageContext: PageContextServer): AfaData {
  const payments = pageContext.services?.payments
  return { providerLabel: !payments || payments.providerName === 'paystack' ? 'Paystack' : payments.providerLabel }
}
