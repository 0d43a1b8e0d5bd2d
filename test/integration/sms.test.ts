import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { useArkeselInstance } from '../helpers/arkesel-instance.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const rows = () => q<any>('SELECT * FROM sms_outbox ORDER BY id')

describe('SMS dispatcher', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('log provider (default): every outbox row is sent through the queue and marked SENT with an id', async () => {
    const id = await app().services.sms.send('0241234567', 'Hello from the test')
    expect((await rows())[0]).to.include({ id, status: 'QUEUED', to_phone: '0241234567' })
    await app().services.queue.drain()
    const [r] = await rows()
    expect(r).to.include({ status: 'SENT', provider: 'log', attempts: 1 })
    expect(r.provider_message_id).to.match(/^log-/)
    expect(r.sent_at).to.be.instanceOf(Date)
    // A job run twice does nothing more.
    expect(await app().services.sms.dispatch(id!)).to.equal('SKIPPED')
  })

  it('rows written by other code (no job) are swept up and sent', async () => {
    await app().db.sequelize.query(
      `INSERT INTO sms_outbox (to_phone, message, status, created_at, updated_at) VALUES ('0241234567', 'Your code is 123456', 'QUEUED', now() - interval '5 minutes', now() - interval '5 minutes')`
    )
    expect(await app().services.sms.sweep()).to.equal(1)
    await app().services.queue.drain()
    expect((await rows())[0]).to.include({ status: 'SENT' })
  })

  it('a row another dispatcher claimed moments ago is left to it (no second send); one whose worker died is taken over', async () => {
    const id = (await app().services.sms.send('0241234567', 'Once only', { defer: true }))!
    await q(`UPDATE sms_outbox SET status = 'SENDING', attempts = 1 WHERE id = :id RETURNING id`, { id })
    expect(await app().services.sms.dispatch(id)).to.equal('SKIPPED')
    expect((await rows())[0]).to.include({ status: 'SENDING', attempts: 1 })
    await q(`UPDATE sms_outbox SET updated_at = now() - interval '5 minutes' WHERE id = :id RETURNING id`, { id })
    expect(await app().services.sms.dispatch(id)).to.equal('SENT')
    expect((await rows())[0]).to.include({ status: 'SENT', attempts: 2 })
  })

  it('several rows are sent with one claim: each SENT with its own message id, a repeat sends nothing', async () => {
    const a = (await app().services.sms.send('0241234567', 'One', { defer: true }))!
    const b = (await app().services.sms.send('0241234568', 'Two', { defer: true }))!
    const out = await app().services.sms.dispatchMany([a, b])
    expect([...out]).to.deep.equal([
      [a, 'SENT'],
      [b, 'SENT']
    ])
    const [ra, rb] = await rows()
    expect(ra.provider_message_id).to.match(/^log-/)
    expect(rb.provider_message_id).to.match(/^log-/).and.not.equal(ra.provider_message_id)
    expect([...(await app().services.sms.dispatchMany([a, b]))].map(([, o]) => o)).to.deep.equal(['SKIPPED', 'SKIPPED'])
  })

  it('admin page API lists the messages with status; admins only; bad filter is a 400', async () => {
    await app().services.sms.send('0241234567', 'One')
    await app().services.queue.drain()
    await app().services.sms.send('0241234568', 'Two')
    const admin = await adminClient()
    const list = await admin.get('/api/delivery/sms')
    expect(list.status).to.equal(200)
    expect(list.body.messages.map((m: any) => [m.message, m.status])).to.deep.equal([
      ['Two', 'QUEUED'],
      ['One', 'SENT']
    ])
    expect(list.body.pagination.total).to.equal(2)
    expect((await admin.get('/api/delivery/sms?status=SENT')).body.messages).to.have.length(1)
    expect((await admin.get('/api/delivery/sms?status=NOPE')).status).to.equal(400)
    expect((await new Client().get('/api/delivery/sms')).status).to.equal(401)
  })

  describe('Arkesel SMS v2 (fake)', () => {
    const ark = useArkeselInstance()
    beforeEach(() => {
      ark.fake.sent.length = 0
      ark.fake.failNext(0)
      ark.app.services.settings.invalidate()
    })

    it("sends with the sender ID from settings and records Arkesel's message id", async () => {
      await ark.app.services.settings.update({ smsSenderId: 'MyShop' }, {})
      await ark.app.services.sms.send('233241234567', 'Your data is on its way')
      await ark.app.services.queue.drain()
      expect(ark.fake.sent).to.have.length(1)
      expect(ark.fake.sent[0]).to.include({ sender: 'MyShop', message: 'Your data is on its way', recipient: '233241234567' })
      expect((await rows())[0]).to.include({ status: 'SENT', provider: 'arkesel', provider_message_id: ark.fake.sent[0]!.id })
    })

    it('retries on 500 until sent; a refusal (4xx) is FAILED at once with the reason', async () => {
      ark.fake.failNext(2, 500)
      await ark.app.services.sms.send('0241234567', 'Retry me')
      await ark.app.services.queue.drain()
      expect((await rows())[0]).to.include({ status: 'SENT', attempts: 3 })
      ark.fake.failNext(1, 402)
      const id = await ark.app.services.sms.send('0241234567', 'No credit')
      await ark.app.services.queue.drain()
      expect((await q<any>('SELECT * FROM sms_outbox WHERE id = :id', { id }))[0]).to.include({
        status: 'FAILED',
        attempts: 1,
        error: 'Arkesel: Insufficient balance'
      })
    })

    it('gives up after 5 tries on a gateway that stays down', async () => {
      ark.fake.failNext(10, 503)
      const id = await ark.app.services.sms.send('0241234567', 'Down')
      await ark.app.services.queue.drain()
      expect((await q<any>('SELECT * FROM sms_outbox WHERE id = :id', { id }))[0]).to.include({ status: 'FAILED', attempts: 5 })
    })
  })
})
