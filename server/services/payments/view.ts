import { toGhs } from '../../lib/money.ts'
import type { PaymentProvider, PaymentRow } from './provider.ts'
import type { PaymentView } from './request.ts'

/** A payment as the API shows it; the provider names its own rows by its label. */
export function createPresent(provider: Pick<PaymentProvider, 'name' | 'label'>) {
  return function present(p: PaymentRow): PaymentView {
    return {
      transactionId: p.transaction_id,
      paymentStatus: p.status,
      extTransactionId: p.ext_transaction_id,
      message: p.message ?? '',
      gateway: p.method === 'card' ? 'paystack' : 'ussd',
      provider: p.gateway,
      providerLabel: p.gateway === provider.name ? provider.label : p.gateway,
      authorizationUrl: (p.details?.authorizationUrl as string | undefined) ?? null,
      amount: toGhs(p.amount_pesewas),
      purpose: p.purpose,
      needsCode: (p.status === 'PENDING' || p.status === 'IN_PROGRESS') && p.details?.needs ? (p.details.needs as 'otp') : null
    }
  }
}
