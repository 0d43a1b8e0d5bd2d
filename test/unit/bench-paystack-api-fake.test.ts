import { expect } from 'chai'
import { paystackApiFake } from '../../bench/paystack-charge-success.ts'
import type { Env } from '../../server/env.ts'
import { createPaystackProvider } from '../../server/services/payments/paystack.ts'
import type { PaymentRow } from '../../server/services/payments/provider.ts'

// The webhook bench points the app's PAYSTACK_BASE_URL at this fake, so its reconcile jobs never reach
// api.paystack.co: the app's own Paystack client must read its answers as Paystack's.
describe("bench: the webhook bench's Paystack API fake, read by the app's Paystack client", () => {
  let api: Awaited<ReturnType<typeof paystackApiFake>>
  let paystack: ReturnType<typeof createPaystackProvider>
  before(async () => {
    api = await paystackApiFake()
    paystack = createPaystackProvider({ PAYSTACK_BASE_URL: api.url, PAYSTACK_SECRET_KEY: 'sk_test_bench', PAYSTACK_TIMEOUT_MS: 2000 } as Env)
  })
  after(() => api.close())

  const payment = (reference: string) => ({ transaction_id: reference, message: null }) as unknown as PaymentRow

  it('lists no transactions for the reconcile jobs (one page)', async () => {
    expect(await paystack.listTransactions!(new Date(Date.now() - 86_400_000), new Date())).to.deep.equal([])
  })

  it('keeps a reference it never posted pending, and verifies a posted one as a success of 500 pesewas', async () => {
    const unknown = await paystack.check!(payment('bench1-7'))
    expect(unknown).to.include({ status: 'PENDING', unclear: true })
    api.paid.add('bench1-7')
    const paid = await paystack.check!(payment('bench1-7'))
    expect(paid).to.include({ status: 'SUCCESS', amountPesewas: 500, currency: 'GHS' })
    expect(paid.extId).to.be.a('string')
  })
})
