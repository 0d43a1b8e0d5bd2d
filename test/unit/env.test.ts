import { expect } from 'chai'
import fs from 'node:fs'
import path from 'node:path'
import { ENV_KEYS, loadEnv, trustProxySetting } from '../../server/env.ts'

// The code the shop runs (tooling such as the test runner, benches and the build reads its own variables).
const SHOP_CODE = ['main.ts', 'server', 'models', 'jobs', 'ussd', 'pages', 'renderer', 'scripts/start.ts', 'scripts/ops.ts']
// Only these read process.env itself: they hand it to loadEnv (or fill SESSION_SECRET in before it runs).
const RAW_READERS = ['server/env.ts', 'main.ts', 'scripts/start.ts', 'scripts/ops.ts']

function shopFiles(): string[] {
  return SHOP_CODE.flatMap((p) =>
    fs.statSync(p).isDirectory()
      ? fs
          .readdirSync(p, { recursive: true, encoding: 'utf8' })
          .filter((f) => /\.tsx?$/.test(f))
          .map((f) => path.join(p, f))
      : [p]
  )
}

const exampleNames = () => [...fs.readFileSync('.env.example', 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!)

describe('configuration', () => {
  it('.env.example lists every checked setting exactly once, and nothing else', () => {
    expect(ENV_KEYS.length).to.be.greaterThan(20)
    const names = exampleNames()
    const counts = new Map<string, number>()
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1)
    expect(
      ENV_KEYS.filter((k) => counts.get(k) !== 1),
      'missing or listed twice'
    ).to.deep.equal([])
    expect(
      names.filter((n) => !ENV_KEYS.includes(n)),
      'listed but never read'
    ).to.deep.equal([])
  })

  it('every variable the shop code names is checked by loadEnv', () => {
    const named = new Set<string>()
    const rawReaders = new Set<string>()
    for (const file of shopFiles()) {
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) {
        named.add((m[1] ?? m[2])!)
        rawReaders.add(file)
      }
      // import.meta.env is Vite's, fixed at build time (PROD, DEV), not the shop's configuration.
      for (const m of text.matchAll(/(?<!import\.meta\.)\benv\??\.([A-Z][A-Z0-9_]*)/g)) named.add(m[1]!)
    }
    expect(named.size).to.be.greaterThan(40)
    expect(
      [...named].filter((n) => !ENV_KEYS.includes(n)),
      'read but not in server/env.ts'
    ).to.deep.equal([])
    expect(
      [...rawReaders].filter((f) => !RAW_READERS.includes(f)),
      'reads process.env instead of the checked env'
    ).to.deep.equal([])
  })

  it('refuses a malformed pool or queue size at start-up, naming the variable', () => {
    expect(() => loadEnv({ DB_POOL_MAX: 'ten' })).to.throw(/DB_POOL_MAX/)
    expect(() => loadEnv({ QUEUE_CONCURRENCY: '0' })).to.throw(/QUEUE_CONCURRENCY/)
    expect(() => loadEnv({ QUEUE_POOL_MAX: '-3' })).to.throw(/QUEUE_POOL_MAX/)
    expect(() => loadEnv({ QUEUE_LOCAL_SIZE: 'x' })).to.throw(/QUEUE_LOCAL_SIZE/)
    const env = loadEnv({ DB_POOL_MAX: '25', QUEUE_CONCURRENCY: '4', QUEUE_COMPLETE_BATCH_MS: '-1' })
    expect([env.DB_POOL_MAX, env.QUEUE_CONCURRENCY, env.QUEUE_POOL_MAX, env.QUEUE_COMPLETE_BATCH_MS, env.QUEUE_LOCAL_SIZE]).to.deep.equal([
      25,
      4,
      undefined,
      -1,
      0
    ])
  })

  it("a delivery pump's claim takes up to 32 paid orders, and its claims start 100 ms apart while orders keep coming", () => {
    const env = loadEnv({})
    expect([env.DELIVERY_BATCH_MAX, env.DELIVERY_GATHER_MS]).to.deep.equal([32, 100])
    expect(exampleNames()).to.include.members(['DELIVERY_BATCH_MAX', 'DELIVERY_GATHER_MS'])
    expect(fs.readFileSync('.env.example', 'utf8'))
      .to.match(/^# DELIVERY_BATCH_MAX=32$/m)
      .and.match(/^# DELIVERY_GATHER_MS=100$/m)
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
