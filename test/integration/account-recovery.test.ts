import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { INVALID_CODE, SENT_MESSAGE } from '../../server/services/recovery/index.ts'
import { createAgent, createUser } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { latestResetCode, outboxFor } from '../helpers/outbox.ts'
import { app, resetDb } from '../helpers/server.ts'

let ipSeq = 0
/** A client from its own address (the app trusts X-Forwarded-For from loopback, like behind HAProxy). */
const from = (ip = `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`) => ({ 'X-Forwarded-For': ip })

const forgot = (identifier: string, headers = from()) => new Client().post('/api/auth/forgot', { identifier }, headers)
const reset = (body: Record<string, unknown>, headers = from()) => new Client().post('/api/auth/reset', body, headers)
const codeRow = async (userId: number) =>
  (
    await app().db.sequelize.query<{ attempts: number }>('SELECT attempts FROM password_reset_codes WHERE user_id = :userId', {
      replacements: { userId },
      type: QueryTypes.SELECT
    })
  )[0]

describe('account recovery', function () {
  this.timeout(60_000)
  beforeEach(async () => {
    await app().services.recovery.settled()
    await resetDb()
  })

  it('answers an unknown phone, an unknown email and a real account the same, and sends a code only to the real one', async () => {
    const { user } = await createAgent({ phone: '0241110001' })
    const answers = [
      await forgot('0249999999'),
      await forgot('nobody@example.com'),
      await forgot(user.email),
      await forgot('233241110001'),
      await forgot(user.email.toUpperCase())
    ]
    for (const a of answers) {
      expect(a.status).to.equal(200)
      expect(a.body).to.deep.equal({ message: SENT_MESSAGE })
      expect(a.headers.get('cache-control')).to.equal('no-store')
    }
    // The lookup and the sending wait in the queue, retried at most 3 times.
    const jobs = await app().db.sequelize.query<{ max_attempts: number }>(
      "SELECT max_attempts FROM graphile_worker.jobs WHERE task_identifier = 'recovery-deliver'",
      { type: QueryTypes.SELECT }
    )
    expect(jobs.map((j) => j.max_attempts)).to.deep.equal([3, 3, 3, 3, 3])
    await app().services.recovery.settled()
    expect(await outboxFor('0249999999')).to.have.length(0)
    const sent = await outboxFor('0241110001')
    expect(sent).to.have.length(3)
    expect(sent[0]!.sensitive).to.equal(true)
    expect(sent[0]!.message).to.match(/reset code: \d{6}\. It expires in 10 minutes/)
  })

  it('asks for a phone or email with a clear 400, never a 500', async () => {
    expect((await forgot('')).body.error).to.equal('Enter your phone number or email')
    expect((await forgot('not an address')).body.error).to.equal('Enter a valid phone number or email')
    expect((await new Client().post('/api/auth/forgot', { identifier: 42 }, from())).status).to.equal(400)
    expect((await reset({ identifier: 'a@b.co', code: '12', newPassword: 'abcdef', confirmPassword: 'abcdef' })).body.error).to.equal('The code is 6 digits')
    // An email needs a dot after the @ and no blank; a phone is digits (blanks, dashes, a leading +) making 9 to 12 digits.
    for (const bad of ['esi@example', 'e si@example.com', 'esi@example.com x', 'x0241110001', '0241110001x', '02411100', '0241110001234']) {
      expect((await forgot(bad)).body.error, bad).to.equal('Enter a valid phone number or email')
    }
    // The longest email taken is 254 characters (the 255th is refused by the form's check before the service).
    for (const good of ['024111000', '024111000123', '+233-24-111-0001', 'ESI@Example.COM', `${'e'.repeat(242)}@example.com`])
      expect((await forgot(good)).status, good).to.equal(200)
  })

  it('sends nothing and keeps no code for an account with no phone while no email can go out', async () => {
    const plain = await createUser({ email: 'nophone@example.com' })
    expect((await forgot(plain.email)).body).to.deep.equal({ message: SENT_MESSAGE })
    await app().services.recovery.settled()
    expect(await codeRow(plain.id)).to.equal(undefined)
    expect(await app().db.models.AuditLog.count({ where: { action: 'PASSWORD_RESET_REQUESTED' } })).to.equal(0)
  })

  it('resets with the code: new password works, old refused, every session and token ends, a notice goes out, audited without secrets', async () => {
    const { user, password } = await createAgent({ phone: '0241110002' })
    const old = new Client()
    await old.login(user.email, password)
    const bearer = new Client()
    const login = await new Client().post('/api/auth/login', { email: user.email, password })
    bearer.bearer = login.body.accessToken

    await forgot('0241110002', from('10.8.0.8'))
    const code = (await latestResetCode('0241110002'))!
    expect(code).to.match(/^\d{6}$/)
    const mismatch = await reset({ identifier: '0241110002', code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-2' })
    expect(mismatch.body.error).to.equal('New passwords do not match')
    expect((await reset({ identifier: '0241110002', code, newPassword: 'short', confirmPassword: 'short' })).body.error).to.equal(
      'Password must be at least 6 characters'
    )
    expect((await codeRow(user.id))!.attempts).to.equal(0) // bad input is not a try

    const ok = await reset({ identifier: '0241110002', code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' }, from('10.8.0.9'))
    expect(ok.status).to.equal(200)
    expect(ok.text).to.not.include(code).and.not.include('fresh-pass-1')

    expect((await new Client().login(user.email, password)).status).to.equal(401)
    expect((await new Client().login(user.email, 'fresh-pass-1')).status).to.equal(200)
    expect((await old.get('/api/auth/me')).status).to.equal(401)
    expect((await bearer.get('/api/auth/me')).status).to.equal(401)
    expect((await new Client().post('/api/auth/refresh', { refreshToken: login.body.refreshToken })).status).to.equal(401)

    const notice = (await outboxFor('0241110002'))[0]!
    expect(notice.message).to.equal('Your Data Hub password was changed. Not you? Call support')
    const audit = await app().db.models.AuditLog.findAll({ where: { resourceId: String(user.id) }, raw: true })
    expect(audit.map((a: any) => a.action)).to.include.members(['PASSWORD_RESET_REQUESTED', 'PASSWORD_RESET', 'SESSIONS_ENDED'])
    expect(JSON.stringify(audit)).to.not.include(code).and.not.include('fresh-pass-1')
    const entry = (action: string) => audit.find((a: any) => a.action === action) as any
    // The queued job keeps the asking client's address for the audit trail.
    expect(entry('PASSWORD_RESET_REQUESTED')).to.include({ severity: 'MEDIUM', ipAddress: '10.8.0.8' })
    expect(entry('PASSWORD_RESET_REQUESTED').details).to.deep.equal({ by: 'self', sms: true, email: false })
    expect(entry('PASSWORD_RESET')).to.include({ severity: 'HIGH', userId: user.id, ipAddress: '10.8.0.9' })
    expect(entry('PASSWORD_RESET').details).to.deep.equal({ sms: true })
    expect(entry('SESSIONS_ENDED').details).to.include({ reason: 'PASSWORD_RESET' })

    // Single use.
    expect((await reset({ identifier: '0241110002', code, newPassword: 'again-pass-1', confirmPassword: 'again-pass-1' })).body.error).to.equal(INVALID_CODE)
  })

  it('the notice names the support number from settings', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { whatsappNumber: '233201234567', siteName: 'Kofi Data' })).status).to.equal(200)
    const { user } = await createAgent({ phone: '0241110010' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110010'))!
    expect((await reset({ identifier: user.email, code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).status).to.equal(200)
    expect((await outboxFor('0241110010'))[0]!.message).to.equal('Your Kofi Data password was changed. Not you? Call 233201234567')
  })

  it('a code is valid 10 minutes', async () => {
    const { user } = await createAgent({ phone: '0241110003' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110003'))!
    await app().db.sequelize.query("UPDATE password_reset_codes SET expires_at = now() - interval '1 second' WHERE user_id = :id", {
      replacements: { id: user.id }
    })
    expect((await reset({ identifier: user.email, code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).body.error).to.equal(INVALID_CODE)
  })

  it('a new request replaces the old code', async () => {
    const { user } = await createAgent({ phone: '0241110004' })
    await forgot(user.email)
    const first = (await latestResetCode('0241110004'))!
    await forgot(user.email)
    const second = (await latestResetCode('0241110004'))!
    expect((await app().db.sequelize.query('SELECT 1 FROM password_reset_codes', { type: QueryTypes.SELECT })).length).to.equal(1)
    if (first !== second) {
      expect((await reset({ identifier: user.email, code: first, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).body.error).to.equal(
        INVALID_CODE
      )
    }
    expect((await reset({ identifier: user.email, code: second, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).status).to.equal(200)
  })

  it('stores the code only as a hash', async () => {
    const { user } = await createAgent({ phone: '0241110005' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110005'))!
    const rows = await app().db.sequelize.query('SELECT * FROM password_reset_codes', { type: QueryTypes.SELECT })
    expect(JSON.stringify(rows)).to.not.include(code)
  })

  it('an unknown account and a wrong code get the same answer', async () => {
    const { user } = await createAgent({ phone: '0241110006' })
    await forgot(user.email)
    await latestResetCode('0241110006')
    const a = await reset({ identifier: 'ghost@example.com', code: '123456', newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })
    const b = await reset({ identifier: user.email, code: '000000', newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })
    expect([a.status, a.body]).to.deep.equal([b.status, b.body])
  })

  it('limits requests per identifier and per client address, the same for unknown identifiers', async () => {
    const { user } = await createAgent({ phone: '0241110007' })
    const real = []
    const ghost = []
    for (let i = 0; i < 6; i++) real.push((await forgot(user.email)).status)
    for (let i = 0; i < 6; i++) ghost.push((await forgot('ghost@example.com')).status)
    expect(real).to.deep.equal([200, 200, 200, 200, 200, 429])
    expect(ghost).to.deep.equal(real)
    const oneIp = []
    for (let i = 0; i < 11; i++) oneIp.push((await forgot(`nobody${i}@example.com`, from('10.200.0.1'))).status)
    expect(oneIp.slice(0, 10).every((s) => s === 200)).to.equal(true)
    expect(oneIp[10]).to.equal(429)
  })

  it('1,000 wrong codes from 50 addresses: the code ends after 5, requests are limited, the owner still logs in and resets later', async function () {
    this.timeout(180_000)
    const { user, password } = await createAgent({ phone: '0241110008' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110008'))!
    // 1,000 different guesses, none of them the real code.
    const guess = (n: number) => (String(n).padStart(6, '0') === code ? '999999' : String(n).padStart(6, '0'))
    const statuses: number[] = []
    for (let round = 0; round < 20; round++) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          reset(
            { identifier: user.email, code: guess(round * 50 + i), newPassword: 'attacker-pass', confirmPassword: 'attacker-pass' },
            from(`10.66.0.${i + 1}`)
          )
        )
      )
      statuses.push(...batch.map((r) => r.status))
    }
    expect(statuses).to.have.length(1000)
    expect(statuses.every((s) => s === 400 || s === 429)).to.equal(true)
    expect(statuses.filter((s) => s === 429).length).to.equal(500) // 10 tries per address per 15 minutes
    expect(await codeRow(user.id)).to.equal(undefined) // ended after 5 wrong tries
    // Even the right code is refused now.
    expect((await reset({ identifier: user.email, code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).body.error).to.equal(INVALID_CODE)
    // The owner signs in with the right password: recovery limits never touch login.
    expect((await new Client().login(user.email, password)).status).to.equal(200)
    // And asks for a new code, which works.
    expect((await forgot(user.email)).status).to.equal(200)
    const fresh = (await latestResetCode('0241110008'))!
    expect((await reset({ identifier: user.email, code: fresh, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).status).to.equal(200)
    expect((await new Client().login(user.email, 'fresh-pass-1')).status).to.equal(200)
  })

  it('sends one account at most 5 codes an hour, however its phone and email are spelled', async () => {
    const { user } = await createAgent({ phone: '0241110013' })
    for (const identifier of [user.email, user.email, user.email, '0241110013', '233241110013', '+233 24 111 0013']) {
      expect((await forgot(identifier)).status).to.equal(200)
    }
    await app().services.recovery.settled()
    const codes = (await outboxFor('0241110013')).filter((m) => /reset code: \d{6}/.test(m.message))
    expect(codes).to.have.length(5)
  })

  it('the 5th wrong try ends the code even when the tries race', async () => {
    const { user } = await createAgent({ phone: '0241110009' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110009'))!
    const wrong = code === '111111' ? '222222' : '111111'
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        reset({ identifier: user.email, code: wrong, newPassword: 'attacker-pass', confirmPassword: 'attacker-pass' }, from(`10.77.0.${i + 1}`))
      )
    )
    expect((await reset({ identifier: user.email, code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })).body.error).to.equal(INVALID_CODE)
  })

  it('exactly 5 wrong codes end the code: the right one is refused after them and the code is gone; after 4 wrong the right one still works', async () => {
    const tryCodes = async (phone: string, wrongTries: number) => {
      const { user } = await createAgent({ phone })
      await forgot(user.email)
      const code = (await latestResetCode(phone))!
      const wrong = code === '111111' ? '222222' : '111111'
      for (let i = 0; i < wrongTries; i++) {
        expect((await reset({ identifier: user.email, code: wrong, newPassword: 'attacker-pass', confirmPassword: 'attacker-pass' })).body.error).to.equal(
          INVALID_CODE
        )
      }
      return { user, code }
    }

    const five = await tryCodes('0241110021', 5)
    expect(await codeRow(five.user.id)).to.equal(undefined)
    const refused = await reset({ identifier: five.user.email, code: five.code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })
    expect([refused.status, refused.body.error]).to.deep.equal([400, INVALID_CODE])
    expect((await new Client().login(five.user.email, 'fresh-pass-1')).status).to.equal(401)

    const four = await tryCodes('0241110022', 4)
    expect((await codeRow(four.user.id))!.attempts).to.equal(4)
    const ok = await reset({ identifier: four.user.email, code: four.code, newPassword: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' })
    expect(ok.status, ok.text).to.equal(200)
    expect((await new Client().login(four.user.email, 'fresh-pass-1')).status).to.equal(200)
    expect(await codeRow(four.user.id)).to.equal(undefined)
  })

  it('the right code sent twice at once works once', async () => {
    const { user } = await createAgent({ phone: '0241110013' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110013'))!
    const both = await Promise.all(['first-pass-1', 'second-pass-2'].map((p) => reset({ identifier: user.email, code, newPassword: p, confirmPassword: p })))
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 400])
    expect(await app().db.models.AuditLog.count({ where: { action: 'PASSWORD_RESET' } })).to.equal(1)
  })

  it('admin "Send password reset": admin only, audited, code to the account\'s phone, never in the answer', async () => {
    const { user } = await createAgent({ phone: '0241110011' })
    const plain = await createUser({ email: 'nophone@example.com' })
    const agentClient = new Client()
    await agentClient.login(user.email, 'password-123')
    expect((await agentClient.post(`/api/admin/users/${user.id}/password-reset`)).status).to.equal(403)
    const admin = await adminClient()
    const res = await admin.post(`/api/admin/users/${user.id}/password-reset`)
    expect(res.status).to.equal(200)
    expect(res.body.message).to.equal("Password reset code sent to the account's phone.")
    const code = (await latestResetCode('0241110011'))!
    expect(res.text).to.not.include(code)
    expect((await admin.post(`/api/admin/users/${plain.id}/password-reset`)).status).to.equal(409)
    expect((await admin.post('/api/admin/users/999999/password-reset')).status).to.equal(404)
    expect((await admin.post('/api/admin/users/abc/password-reset')).status).to.equal(400)
    expect((await admin.post('/api/admin/users/0/password-reset')).status).to.equal(400)
    expect(await app().db.models.AuditLog.count({ where: { action: 'ADMIN_PASSWORD_RESET_SENT' } })).to.equal(1)
    const audit = (await app().db.models.AuditLog.findAll({ where: { resourceId: String(user.id) }, raw: true })) as any[]
    const sent = audit.find((a) => a.action === 'ADMIN_PASSWORD_RESET_SENT')
    expect(sent.severity).to.equal('HIGH')
    expect(sent.details).to.deep.equal({ email: user.email, sms: true, emailSent: false })
    const requested = audit.find((a) => a.action === 'PASSWORD_RESET_REQUESTED')
    expect(requested.severity).to.equal('HIGH')
    expect(requested.details).to.deep.equal({ by: 'admin', sms: true, email: false })
  })

  it('the admin SMS outbox view shows codes while no provider sends (a fresh machine), admin only', async () => {
    const { user } = await createAgent({ phone: '0241110012' })
    await forgot(user.email)
    const code = (await latestResetCode('0241110012'))!
    const admin = await adminClient()
    const res = await admin.get('/api/delivery/sms?phone=0241110012')
    expect(res.status).to.equal(200)
    expect(res.body.simulated).to.equal(true)
    expect(res.body.messages[0].message).to.include(code)
    expect((await new Client().get('/api/delivery/sms')).status).to.equal(401)
    expect((await admin.get('/api/delivery/sms?phone=abc')).status).to.equal(400)
  })
})
