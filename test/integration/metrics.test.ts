import { expect } from 'chai'
import { connect } from '../../models/db.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

describe('/metrics', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('gives Prometheus text to an allowed address: requests and latency by route, payments by status', async () => {
    const c = new Client()
    // Counters live for the whole test process: compare with what earlier tests left.
    const countOf = (text: string) => Number(/datahub_http_requests_total\{method="GET",route="\/api\/packages",status="200"\} (\d+)/.exec(text)?.[1] ?? 0)
    const before = countOf((await c.get('/metrics')).text)
    await c.get('/api/packages')
    await c.get('/api/packages')
    await app().db.sequelize.query(
      "INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, created_at, updated_at) VALUES ('m1', 'data', 'ussd', 'momo', 'SUCCESS', 500, now(), now()), ('m2', 'data', 'ussd', 'momo', 'PENDING', 500, now(), now())"
    )
    const res = await c.get('/metrics')
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-type')).to.include('text/plain')
    expect(countOf(res.text) - before).to.equal(2)
    expect(res.text).to.match(/datahub_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/packages"\} \d+/)
    expect(res.text).to.include('datahub_payments{status="SUCCESS"} 1')
    expect(res.text).to.include('datahub_payments{status="PENDING"} 1')
    expect(res.text).to.include('process_cpu_user_seconds_total')
  })

  it('is hidden (404) from a client outside the allowed addresses, as seen through the balancer', async () => {
    const res = await new Client().get('/metrics', { 'X-Forwarded-For': '203.0.113.7' })
    expect(res.status).to.equal(404)
    expect(res.text).not.to.include('datahub_')
  })

  describe('with METRICS_TOKEN', () => {
    let other: Running
    before(async () => {
      const { sequelize, models } = connect(app().db.url)
      other = await boot({
        env: { ...testEnv(), PORT: 0, METRICS_TOKEN: 'scrape-token-0123456789', METRICS_ALLOW_IPS: '' },
        log: createLogger('silent'),
        db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
      })
    })
    after(async () => other?.stop())

    it('answers the token, and nobody else', async () => {
      const c = new Client(other.url)
      expect((await c.get('/metrics')).status).to.equal(404)
      expect((await c.get('/metrics', { Authorization: 'Bearer wrong-token-0123456789' })).status).to.equal(404)
      const ok = await c.get('/metrics', { Authorization: 'Bearer scrape-token-0123456789' })
      expect(ok.status).to.equal(200)
      expect(ok.text).to.include('datahub_http_requests_total')
    })
  })
})
