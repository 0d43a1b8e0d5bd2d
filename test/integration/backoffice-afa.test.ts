import { expect } from 'chai'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAfaRegistration } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { rawBytes } from '../helpers/backoffice-orders.ts'

describe('back office A: AFA registrations', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it('lists newest first with server pagination and search by name, card or phone', async () => {
    for (let i = 0; i < 23; i++) await createAfaRegistration({ createdAt: new Date(Date.now() - i * 60_000) })
    const abena = await createAfaRegistration({
      fullName: 'Abena Owusu',
      ghCard: 'GHA-777888999-3',
      phone: '0249990000',
      createdAt: new Date(Date.now() - 3_600_000)
    })
    const res = await admin.get('/api/afa?page=1&limit=20')
    expect(res.status).to.equal(200)
    expect(res.body.registrations).to.have.length(20)
    expect(res.body.pagination).to.include({ total: 24, totalPages: 2, page: 1, hasNext: true })
    const p2 = await admin.get('/api/afa?page=2&limit=20')
    expect(p2.body.registrations.at(-1).id).to.equal(abena.id)
    for (const q of ['abena', 'OWUSU', '777888', '233249990000', '0249990']) {
      const found = await admin.get(`/api/afa?search=${encodeURIComponent(q)}`)
      expect(
        found.body.registrations.map((r: any) => r.id),
        q
      ).to.deep.equal([abena.id])
    }
    expect((await admin.get('/api/afa?search=nobody')).body.pagination.total).to.equal(0)
    expect((await admin.get('/api/afa?page=0')).status).to.equal(400)
  })

  it('marks completed one way only, never for a payment that did not succeed', async () => {
    const paid = await createAfaRegistration()
    const failed = await createAfaRegistration({ paymentStatus: 'FAILED' })
    const res = await admin.patch(`/api/afa/${paid.id}/completed`)
    expect(res.status).to.equal(200)
    expect(res.body.registration).to.include({ id: paid.id, completed: true })
    const again = await admin.patch(`/api/afa/${paid.id}/completed`)
    expect(again.body.registration.completed).to.equal(true)
    const refused = await admin.patch(`/api/afa/${failed.id}/completed`)
    expect(refused.status).to.equal(409)
    expect((await admin.patch('/api/afa/424242/completed')).status).to.equal(404)
  })

  it('exports every registration as afa_registrations.csv', async () => {
    await createAfaRegistration({ fullName: '=HYPERLINK("x")', phone: '0201234567', amountPesewas: 1500 })
    await createAfaRegistration({ fullName: 'Kwame Nkrumah', paymentStatus: null, completed: true })
    const bytes = await rawBytes(admin, '/api/afa/export')
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]) // UTF-8 BOM for Excel
    const res = await admin.post('/api/afa/export')
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="afa_registrations.csv"')
    const [header, ...data] = parseCsv(res.text)
    expect(header).to.deep.equal([
      'ID',
      'Full Name',
      'GH Card Number',
      'Phone Number',
      'Email',
      'Amount (GHS)',
      'Payment Status',
      'Transaction ID',
      'Completed',
      'Submitted (UTC)',
      'Completed At (UTC)',
      'Simulated Payment'
    ])
    expect(data).to.have.length(2)
    expect(data[0]![1]).to.equal('\t=HYPERLINK("x")') // formula neutralised
    expect(data[0]![3]).to.equal('\t0201234567')
    expect(data[0]![5]).to.equal('15.00')
    expect(data[1]!.slice(6, 9)).to.deep.equal(['N/A', data[1]![7], 'Yes'])
  })
})
