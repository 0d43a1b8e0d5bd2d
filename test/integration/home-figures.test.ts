import { expect } from 'chai'
import { createOrder } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

// The home page's trust line claims users and a success rate only when the orders support them.
const home = async (path = '/') => (await fetch(app().url + path, { headers: { 'User-Agent': 'Mozilla/5.0' } })).text()
const trustBox = (html: string) => /aria-label="Why people trust us">([\s\S]*?)<\/div><\/div><\/section>/.exec(html)?.[1] ?? html

describe('home page: figures the data supports', () => {
  beforeEach(async () => {
    await resetDb()
    app().services.publicStats.forget()
  })

  it('a fresh shop claims no users and no success rate', async () => {
    const html = await home()
    expect(html).to.include('Why people trust us')
    expect(html).to.not.include('10,000+').and.not.include('99.9%')
    expect(html).to.not.include('data-testid="trust-users"').and.not.include('data-testid="trust-success"')
    expect(trustBox(html)).to.not.match(/users|success rate/)
  })

  it('a few orders are not enough to claim anything', async () => {
    for (let i = 0; i < 5; i++)
      await createOrder({ paymentStatus: 'SUCCESS', deliveryStatus: 'DELIVERED', delivered: true, paymentPhoneNumber: `02400000${String(i).padStart(2, '0')}` })
    const html = await home('/?few')
    expect(html).to.not.include('data-testid="trust-users"').and.not.include('data-testid="trust-success"')
  })

  it('with enough paid orders it shows the real count, rounded down, and the delivered share, never rounded up', async () => {
    // 123 paying numbers; 122 delivered, 1 delivery failed: 99.18...% shows as 99.1%.
    for (let i = 0; i < 123; i++) {
      await createOrder({
        paymentStatus: 'SUCCESS',
        paymentPhoneNumber: `0241${String(i).padStart(6, '0')}`,
        ...(i === 0 ? { deliveryStatus: 'FAILED' } : { deliveryStatus: 'DELIVERED', delivered: true })
      })
    }
    // Unpaid orders count for nothing.
    for (let i = 0; i < 3; i++) await createOrder({ paymentStatus: 'FAILED', paymentPhoneNumber: `0551${String(i).padStart(6, '0')}` })
    const html = await home('/?many')
    expect(html).to.match(/data-testid="trust-users"><strong>100\+<\/strong><span class="sf-muted">users/)
    expect(html).to.match(/data-testid="trust-success"><strong>99\.1%<\/strong><span class="sf-muted">success rate/)
    expect(html).to.not.include('10,000+')
  })
})
