import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { loadEnv, payerEmailDomainProblem } from '../../server/env.ts'
import { payerEmailDomain } from '../../server/services/payments/index.ts'

// Paystack needs a real e-mail on every charge; visitors paying by phone get momo-<phone>@PAYER_EMAIL_DOMAIN.
describe('payer e-mail domain', () => {
  const base = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), PAYSTACK_SECRET_KEY: 'sk_live_x', PUBLIC_URL: 'http://10.0.0.5' }

  it('start-up in production with Paystack, an IP PUBLIC_URL and no PAYER_EMAIL_DOMAIN exits with a one-line reason', function () {
    this.timeout(30_000)
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...base }
    const run = spawnSync(process.execPath, ['main.ts'], { env, encoding: 'utf8', timeout: 25_000 })
    expect(run.status).to.equal(1)
    expect(run.stderr).to.contain('PAYER_EMAIL_DOMAIN is required in production with Paystack')
  })

  it('refuses IPs, localhost and bare words; accepts a domain name', () => {
    expect(() => loadEnv(base as NodeJS.ProcessEnv)).to.throw(/PAYER_EMAIL_DOMAIN is required/)
    for (const bad of ['10.0.0.5', 'localhost', 'shop', 'bad_domain.com', '-x.com']) {
      expect(() => loadEnv({ ...base, PAYER_EMAIL_DOMAIN: bad } as NodeJS.ProcessEnv), bad).to.throw(/PAYER_EMAIL_DOMAIN must be a domain name/)
    }
    expect(loadEnv({ ...base, PAYER_EMAIL_DOMAIN: 'Customers.Example.com' } as NodeJS.ProcessEnv).PAYER_EMAIL_DOMAIN).to.equal('customers.example.com')
    // Without Paystack (the simulator) or outside production nothing is required.
    expect(() => loadEnv({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), PUBLIC_URL: 'http://10.0.0.5' } as NodeJS.ProcessEnv)).to.not.throw()
    expect(payerEmailDomainProblem('customers.example.com')).to.equal(null)
  })

  it('the stand-in domain is never an IP or localhost', () => {
    const env = (o: Record<string, string>) => loadEnv(o as NodeJS.ProcessEnv)
    expect(payerEmailDomain(env({ PUBLIC_URL: 'http://10.0.0.5' }))).to.equal('customers.datahub.invalid')
    expect(payerEmailDomain(env({ PUBLIC_URL: 'http://localhost:3000' }))).to.equal('customers.datahub.invalid')
    expect(payerEmailDomain(env({ PUBLIC_URL: 'https://shop.example.com' }))).to.equal('shop.example.com')
    expect(payerEmailDomain(env({ PUBLIC_URL: 'http://10.0.0.5', PAYER_EMAIL_DOMAIN: 'pay.example.org' }))).to.equal('pay.example.org')
  })
})
