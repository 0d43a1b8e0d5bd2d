import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { statementsSent } from '../helpers/statements.ts'
import { paidVisitorOrder } from '../helpers/delivery.ts'
import { app, resetDb } from '../helpers/server.ts'

// A pump's batch: the DELIVERED statement claims the texts it writes and the order texts settlement handed
// over, so they are sent with no claim statement of their own, each once; a text another dispatcher holds
// is left to it. Counts statements and rows, never times.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

const texts = () => q<{ id: number; status: string; attempts: number; message: string }>('SELECT id, status, attempts, message FROM sms_outbox ORDER BY id')

describe("delivery pump: a batch's texts claimed by its DELIVERED statement", () => {
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })

  it('no claim statement of their own: the order texts and the delivered texts of 3 orders are each sent once', async () => {
    for (const r of ['0201140001', '0201140002', '0201140003']) await paidVisitorOrder(r)
    const { out, sent } = await statementsSent(() => app().services.delivery.pump('test-pool'))
    expect(out).to.equal(3)
    const claims = sent.filter((t) => /^UPDATE sms_outbox SET status = 'SENDING'/.test(t.replace(/\s+/g, ' ')))
    expect(claims, claims.join('\n')).to.have.length(0)
    const rows = await texts()
    expect(rows).to.have.length(6)
    expect(rows.every((m) => m.status === 'SENT' && m.attempts === 1)).to.equal(true)
    expect(rows.filter((m) => /has been delivered/.test(m.message))).to.have.length(3)
  })

  it('an order text another dispatcher holds (SENDING, recent) is neither claimed nor sent again; the rest go out', async () => {
    await paidVisitorOrder('0201140004')
    const [held] = await texts()
    await q(`UPDATE sms_outbox SET status = 'SENDING', attempts = 1, updated_at = now() WHERE id = :id RETURNING id`, { id: held!.id })
    expect(await app().services.delivery.pump('test-pool')).to.equal(1)
    const rows = await texts()
    expect(rows.find((m) => m.id === held!.id)).to.include({ status: 'SENDING', attempts: 1 })
    const others = rows.filter((m) => m.id !== held!.id)
    expect(others).to.have.length(1)
    expect(others[0]).to.include({ status: 'SENT', attempts: 1 })
    expect(others[0]!.message).to.match(/has been delivered/)
  })
})
