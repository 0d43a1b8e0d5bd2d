import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { SENT_MESSAGE } from '../../server/services/recovery/index.ts'
import { createAgent, createUser } from '../helpers/factories.ts'
import { startFakeSmtp } from '../helpers/fake-smtp.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { latestResetCode, outboxFor } from '../helpers/outbox.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

// Account recovery at its edges: who a phone names, a failing limiter store, the first account's id,
// and the email half under each SMTP setting (signed in, unreachable, absent outside production).

const rows = (sql: string) => app().db.sequelize.query(sql, { type: QueryTypes.SELECT })
const askFor = (identifier: string, base?: string) => new Client(base).post('/api/auth/forgot', { identifier })

describe('account recovery: edges', function () {
  this.timeout(60_000)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-recovery-edges-'))
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>

  before(async () => {
    smtp = await startFakeSmtp()
  })
  after(async () => {
    await smtp?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(async () => {
    await app().services.recovery.settled()
    await resetDb()
  })

  it("finds a user without an agent profile by the user's own phone; a number two such users share names neither", async () => {
    await createUser({ phone: '0241110031' })
    await createUser({ phone: '0241110032' })
    await createUser({ phone: '0241110032' })
    expect((await askFor('233241110031')).status).to.equal(200)
    expect((await askFor('0241110032')).status).to.equal(200)
    expect(await latestResetCode('0241110031')).to.match(/^\d{6}$/)
    expect(await outboxFor('0241110032')).to.have.length(0)
  })

  it('a failing limiter store is an error, never read as a limit reached (nor as allowed)', async () => {
    const db = app().db.sequelize
    await db.query('ALTER TABLE recovery_rate_limits RENAME TO recovery_rate_limits_away')
    try {
      const res = await askFor('someone@example.com')
      expect([res.status, res.body.error]).to.deep.equal([500, 'Something went wrong. Please try again.'])
    } finally {
      await db.query('ALTER TABLE recovery_rate_limits_away RENAME TO recovery_rate_limits')
    }
    expect(await rows("SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = 'recovery-deliver'")).to.have.length(0)
  })

  it("the admin's send takes id 1 like any other: the first account (the admin, with no phone) is looked up", async () => {
    const res = await (await adminClient()).post('/api/admin/users/1/password-reset')
    expect([res.status, res.body.error]).to.deep.equal([409, 'This account has no phone number to send a code to.'])
  })

  it('with SMTP_USER and SMTP_PASS it signs in to the SMTP server; an account with an email and no phone gets its code by email only', async () => {
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: smtp.port, SMTP_USER: 'mailer@datahub.test', SMTP_PASS: 'smtp-secret-1' }
    const mailApp = await bootInstance(env, path.join(dir, 'auth.log'))
    const signedIn = smtp.logins.length
    try {
      await createUser({ email: 'ama@example.com' })
      expect((await askFor('ama@example.com', mailApp.url)).status).to.equal(200)
      await mailApp.services.recovery.settled()
      const mails = smtp.mails.filter((m) => m.to.includes('ama@example.com'))
      expect(mails).to.have.length(1)
      expect(smtp.logins.slice(signedIn)).to.deep.equal([{ username: 'mailer@datahub.test', password: 'smtp-secret-1' }])
      expect(await rows('SELECT 1 FROM sms_outbox')).to.have.length(0)
      const requested = (await app().db.models.AuditLog.findOne({ where: { action: 'PASSWORD_RESET_REQUESTED' }, raw: true })) as any
      expect(requested.details).to.deep.equal({ by: 'self', sms: false, email: true })
      const code = /code is (\d{6})/.exec(mails[0]!.raw)![1]!
      const body = { identifier: 'ama@example.com', code, newPassword: 'Harmattan-Pass-4', confirmPassword: 'Harmattan-Pass-4' }
      expect((await new Client(mailApp.url).post('/api/auth/reset', body)).status).to.equal(200)
    } finally {
      await mailApp.stop()
    }
  })

  it('when the SMTP server cannot be reached the code still goes by SMS, the admin is told so, and the log says why without the code', async () => {
    const logFile = path.join(dir, 'smtp-down.log')
    // Nothing listens on port 9 here: the connection is refused at once.
    const down = await bootInstance({ SMTP_HOST: '127.0.0.1', SMTP_PORT: 9 }, logFile)
    try {
      const { user } = await createAgent({ phone: '0246660003', email: 'yaw@example.com' })
      const admin = new Client(down.url)
      await admin.login(ADMIN.email, ADMIN.password)
      const sent = await admin.post(`/api/admin/users/${user.id}/password-reset`)
      expect([sent.status, sent.body.message]).to.deep.equal([200, "Password reset code sent to the account's phone."])
      const code = /reset code: (\d{6})/.exec((await outboxFor('0246660003'))[0]!.message)![1]!
      const lines = fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
      const failed = lines.find((l) => l.msg === 'reset email not sent')
      expect(failed, 'the failed email is logged').to.not.equal(undefined)
      expect(failed.userId).to.equal(user.id)
      expect(failed.err.message).to.include('ECONNREFUSED')
      expect(JSON.stringify(lines)).to.not.include(code)
      const entry = (await app().db.models.AuditLog.findOne({ where: { action: 'ADMIN_PASSWORD_RESET_SENT' }, raw: true })) as any
      expect(entry.details).to.deep.equal({ email: 'yaw@example.com', sms: true, emailSent: false })
    } finally {
      await down.stop()
    }
  })

  it('outside production a payment gateway with no SMS provider or SMTP keeps self-service reset on (the outbox is the phone)', async () => {
    const dev = await bootInstance({ PAYSTACK_SECRET_KEY: 'sk_test_recovery', PAYSTACK_BASE_URL: 'http://127.0.0.1:9' })
    try {
      const res = await askFor('someone@example.com', dev.url)
      expect([res.status, res.body]).to.deep.equal([200, { message: SENT_MESSAGE }])
    } finally {
      await dev.stop()
    }
  })
})
