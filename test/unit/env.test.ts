import { expect } from 'chai'
import fs from 'node:fs'
import { ENV_KEYS, loadEnv, trustProxySetting } from '../../server/env.ts'

describe('configuration', () => {
  it('.env.example lists every setting the shop reads', () => {
    const example = fs.readFileSync('.env.example', 'utf8')
    expect(ENV_KEYS.length).to.be.greaterThan(20)
    const missing = ENV_KEYS.filter((k) => !new RegExp(`^#?\\s*${k}=`, 'm').test(example))
    expect(missing).to.deep.equal([])
  })

  it('requires SESSION_SECRET in production, and not in development or for operator commands', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).to.throw(/SESSION_SECRET is required in production/)
    expect(loadEnv({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) }).SESSION_SECRET).to.equal('s'.repeat(32))
    expect(() => loadEnv({ NODE_ENV: 'development' })).not.to.throw()
    expect(() => loadEnv({ NODE_ENV: 'production' }, {}, { server: false })).not.to.throw()
  })

  it('reads TRUST_PROXY as a hop count, a switch, or addresses', () => {
    expect(trustProxySetting(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY)).to.equal(1)
    expect(trustProxySetting(loadEnv({}).TRUST_PROXY)).to.equal('loopback')
    expect(trustProxySetting('10.0.0.0/8, 127.0.0.1')).to.equal('10.0.0.0/8, 127.0.0.1')
    expect(trustProxySetting('false')).to.equal(false)
    expect(() => loadEnv({ TRUST_PROXY: 'x;rm' })).to.throw(/TRUST_PROXY/)
  })
})
