import { expect } from 'chai'
import { loadEnv } from '../../server/env.ts'
import { pickTransfers } from '../../server/services/payouts/provider.ts'
import type { TransfersProvider } from '../../server/services/payouts/transfers.ts'

describe('payouts: which transfers provider', () => {
  const env = (vars: NodeJS.ProcessEnv) => loadEnv({ NODE_ENV: 'test', ...vars })

  it('uses the simulator without a Paystack key, and offers its control', () => {
    const { transfers, sim } = pickTransfers(env({}))
    expect(transfers.name).to.equal('simulator')
    expect(sim?.provider).to.equal(transfers)
  })

  it('uses Paystack when its key is set, with no simulator to control', () => {
    const picked = pickTransfers(env({ PAYSTACK_SECRET_KEY: 'sk_test_x' }))
    expect(picked.transfers.name).to.equal('paystack')
    expect(picked.sim).to.equal(null)
    const named = pickTransfers(env({ PAYSTACK_SECRET_KEY: 'sk_test_x', PAYMENT_PROVIDER: 'paystack' }))
    expect(named.transfers.name).to.equal('paystack')
    expect(named.sim).to.equal(null)
  })

  it('uses the simulator when PAYMENT_PROVIDER asks for it, even with a Paystack key', () => {
    const { transfers, sim } = pickTransfers(env({ PAYSTACK_SECRET_KEY: 'sk_test_x', PAYMENT_PROVIDER: 'simulator' }))
    expect(transfers.name).to.equal('simulator')
    expect(sim?.provider).to.equal(transfers)
  })

  it('uses a provider handed in as it is, whatever the key says', () => {
    const given = { name: 'paystack' } as TransfersProvider
    for (const vars of [{}, { PAYSTACK_SECRET_KEY: 'sk_test_x' }]) {
      const picked = pickTransfers(env(vars), given)
      expect(picked.transfers).to.equal(given)
      expect(picked.sim).to.equal(null)
    }
  })
})
