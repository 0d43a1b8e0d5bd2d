import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { connect } from '../../models/db.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { BY_SUPPORT } from '../../server/services/recovery/index.ts'
import { createAgent } from '../helpers/factories.ts'
import { startFakeSmtp } from '../helpers/fake-smtp.ts'
import { Client } from '../helpers/http.ts'
import { outboxFor } from '../helpers/outbox.ts'
import { ADMIN, app, resetDb, testEnv } from '../helpers/server.ts'

/** A second app instance on the same database, with its own environment and a log file to read. */
async function bootInstance(env: Record<string, unknown>, logFile: string): Promise<Running> {
  const { sequelize, models } = connect(app().db.url)
  return boot({
    env: { ...testEnv(), PORT: 0, ...env } as ReturnType<typeof testEnv>,
    log: createLogger('trace', logFile),
    db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
  })
}

describe('account recovery: email by SMTP, what the log holds, production with and without a provider', function () {
  this.timeout(60_000)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-recovery-log-'))
  const logFile = path.join(dir, 'server.log')
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>
  let mailApp: Running

  before(async () => {
    smtp = await startFakeSmtp()
    mailApp = await bootInstance({ SMTP_HOST: '127.0.0.1', SMTP_PORT: smtp.port, SMTP_FROM: 'Data Hub <no-reply@datahub.test>' }, logFile)
  })
  after(async () => {
    await mailApp?.stop()
    await smtp?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(resetDb)

  it('sends the code by SMS and by email; codes and new passwords appear in no log line, audit entry or answer', async () => {
    const { user, password } = await createAgent({ phone: '0246660001', email: 'esi@example.com' })
    const c = (ip: string) => new Client(mailApp.url)
    const h = (ip: string) => ({ 'X-Forwarded-For': ip })
    const answers: string[] = []

    answers.push((await c('').post('/api/auth/forgot', { identifier: 'esi@example.com' }, h('10.5.0.1'))).text)
    await mailApp.services.recovery.settled()
    const mail = smtp.mails.find((m) => m.to.includes('esi@example.com'))!
    expect(mail, 'an email reached the SMTP fake').to.not.equal(undefined)
    const code = /code is (\d{6})/.exec(mail.raw)![1]!
    expect((await outboxFor('0246660001'))[0]!.message).to.include(code) // the same code by SMS

    // A wrong code, a mismatch, then the right one.
    const wrong = code === '000000' ? '000001' : '000000'
    answers.push(
      (
        await c('').post(
          '/api/auth/reset',
          { identifier: 'esi@example.com', code: wrong, newPassword: 'Sunrise-Password-9', confirmPassword: 'Sunrise-Password-9' },
          h('10.5.0.2')
        )
      ).text
    )
    answers.push(
      (
        await c('').post(
          '/api/auth/reset',
          { identifier: 'esi@example.com', code, newPassword: 'Sunrise-Password-9', confirmPassword: 'Sunrise-Password-0' },
          h('10.5.0.2')
        )
      ).text
    )
    const ok = await c('').post(
      '/api/auth/reset',
      { identifier: 'esi@example.com', code, newPassword: 'Sunrise-Password-9', confirmPassword: 'Sunrise-Password-9' },
      h('10.5.0.2')
    )
    expect(ok.status).to.equal(200)
    answers.push(ok.text)
    const login = await c('').post('/api/auth/login', { email: 'esi@example.com', password: 'Sunrise-Password-9' })
    expect(login.status).to.equal(200)
    expect((await c('').post('/api/auth/login', { email: 'esi@example.com', password })).status).to.equal(401)

    // An admin sends another reset through this instance (SMS + email).
    const admin = new Client(mailApp.url)
    await admin.login(ADMIN.email, ADMIN.password)
    const sent = await admin.post(`/api/admin/users/${user.id}/password-reset`)
    expect(sent.body.message).to.equal("Password reset code sent to the account's phone and email.")
    answers.push(sent.text)
    const second = /code is (\d{6})/.exec(smtp.mails.filter((m) => m.to.includes('esi@example.com')).at(-1)!.raw)![1]!
    answers.push((await admin.get('/api/admin/audit-logs?limit=100')).text)

    const log = fs.readFileSync(logFile, 'utf8')
    expect(log).to.include('sms queued (outbox)') // the log is really written at trace level
    expect(log.split('\n').length).to.be.greaterThan(10)
    const audit = JSON.stringify(await app().db.models.AuditLog.findAll({ raw: true }))
    for (const secret of [code, second, 'Sunrise-Password-9', 'Sunrise-Password-0']) {
      expect(log, `log holds ${secret}`).to.not.include(secret)
      expect(audit, `audit holds ${secret}`).to.not.include(secret)
      for (const a of answers) expect(a, `an answer holds ${secret}`).to.not.include(secret)
    }
  })

  it('in production with the payment simulator and no SMS provider: self-service reset is on, the code waits on /admin/sms', async () => {
    const demoLog = path.join(dir, 'demo.log')
    const demo = await bootInstance({ NODE_ENV: 'production' }, demoLog)
    try {
      const page = await new Client(demo.url).get('/forgot', { Accept: 'text/html' })
      expect(page.text).to.include('id="identifier"')
      expect(page.text).to.not.include('Password reset is done by support.')
      await createAgent({ phone: '0246660002', email: 'kwesi@example.com' })
      const api = await new Client(demo.url).post('/api/auth/forgot', { identifier: '0246660002' })
      expect(api.status).to.equal(200)
      await demo.services.recovery.settled()
      expect((await outboxFor('0246660002'))[0]!.message).to.match(/reset code: \d{6}/)
      expect(fs.readFileSync(demoLog, 'utf8')).to.not.include('self-service password reset is off')
    } finally {
      await demo.stop()
    }
  })

  it('in production with a payment gateway and no SMS provider or SMTP: /forgot says reset is by support, the API says so, start-up warns', async () => {
    const prodLog = path.join(dir, 'prod.log')
    const gateway = { NODE_ENV: 'production', PAYSTACK_SECRET_KEY: 'sk_test_recovery', PAYSTACK_BASE_URL: 'http://127.0.0.1:9' }
    const prod = await bootInstance(gateway, prodLog)
    try {
      const page = await new Client(prod.url).get('/forgot', { Accept: 'text/html' })
      expect(page.status).to.equal(200)
      expect(page.text).to.include('Password reset is done by support.')
      expect(page.text).to.not.include('id="identifier"')
      const api = await new Client(prod.url).post('/api/auth/forgot', { identifier: 'someone@example.com' })
      expect(api.status).to.equal(503)
      expect(api.body.error).to.equal(BY_SUPPORT)
      expect(fs.readFileSync(prodLog, 'utf8')).to.include('self-service password reset is off')
    } finally {
      await prod.stop()
    }
    // With SMTP configured, production offers the form.
    const withMail = await bootInstance({ ...gateway, SMTP_HOST: '127.0.0.1', SMTP_PORT: smtp.port }, path.join(dir, 'prod2.log'))
    try {
      const page = await new Client(withMail.url).get('/forgot', { Accept: 'text/html' })
      expect(page.text).to.include('id="identifier"')
    } finally {
      await withMail.stop()
    }
  })
})
