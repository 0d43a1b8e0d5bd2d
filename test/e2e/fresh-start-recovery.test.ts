import { expect } from 'chai'
import fs from 'node:fs'
import type { Page } from 'puppeteer-core'
import { BY_SUPPORT } from '../../server/services/recovery/index.ts'
import { hydrated, newPage, tap } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { startShopLikeNpmStart, type ChildServer } from '../helpers/child-server.ts'
import { Client } from '../helpers/http.ts'
import { testClusterDir } from '../helpers/server.ts'

const PHONE = '0245557001'
const EMAIL = 'efua@example.com'

async function signIn(page: Page, shop: ChildServer, email: string, password: string) {
  await page.goto(`${shop.url}/login`)
  await hydrated(page)
  await page.type('#email', email)
  await page.type('#password', password)
  await Promise.all([page.waitForNavigation(), tap(page, 'button[type="submit"]')])
}

/** The first admin's password, printed once by the first start. */
async function firstAdminPassword(shop: ChildServer): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const m = /Password: (\S+)/.exec(shop.output())
    if (m) return m[1]!
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no first admin password printed:\n${shop.output()}`)
}

/** The admin's SMS page stands in for the phone: reloads until the reset code for `phone` is listed. */
async function codeOnAdminSms(admin: Page, shop: ChildServer, phone: string): Promise<string> {
  for (let i = 0; i < 30; i++) {
    await admin.goto(`${shop.url}/admin/sms`)
    await hydrated(admin)
    await admin.waitForSelector('[data-outbox-row], .table', { timeout: 5000 }).catch(() => undefined)
    const texts = await admin.$$eval(`[data-outbox-row="${phone}"] [data-outbox-message]`, (es) => es.map((e) => (e as HTMLElement).innerText))
    const code = texts.map((t) => /reset code: (\d{6})/.exec(t)?.[1]).find(Boolean)
    if (code) return code
    await new Promise((r) => setTimeout(r, 1000))
  }
  throw new Error(`no reset code for ${phone} on /admin/sms`)
}

describe('browser: password recovery on a fresh machine started like `npm start`', function () {
  const browser = browserSuite(this, 300_000, 'none')
  let shop: ChildServer | undefined
  const dataDir = testClusterDir(`fresh-start-${process.pid}`)

  afterEach(async () => {
    await shop?.kill('SIGTERM')
    shop = undefined
  })
  after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('no SMS provider, no SMTP, the payment simulator: /forgot -> code on /admin/sms -> /reset -> signed in with the new password', async () => {
    shop = await startShopLikeNpmStart(dataDir)
    expect(shop.output()).to.not.include('self-service password reset is off')
    const adminPassword = await firstAdminPassword(shop)
    const registered = await new Client(shop.url).post('/api/agents/register', { name: 'Efua Mensah', phone: PHONE, email: EMAIL, password: 'Old-secret-1' })
    expect(registered.status, registered.text).to.equal(201)

    const page = await newPage(browser, { width: 360 })
    await page.goto(`${shop.url}/forgot`)
    await hydrated(page)
    await page.type('#identifier', PHONE)
    await tap(page, 'button[type=submit]')
    await waitText(page, 'If an account exists, we have sent a code.')

    const admin = await newPage(browser, { width: 1024 })
    await signIn(admin, shop, 'admin@datahub.local', adminPassword)
    const code = await codeOnAdminSms(admin, shop, PHONE)

    await Promise.all([page.waitForNavigation(), tap(page, 'a[href="/reset"]')])
    await hydrated(page)
    await page.type('#code', code)
    await page.type('#newPassword', 'New-secret-42')
    await page.type('#confirmPassword', 'New-secret-42')
    await Promise.all([page.waitForNavigation(), tap(page, 'button[type=submit]')])
    await hydrated(page)
    await waitText(page, 'Your password was changed. Log in with your new password.')

    await signIn(page, shop, EMAIL, 'New-secret-42')
    expect(new URL(page.url()).pathname).to.match(/^\/agent\//)
    const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.json()))
    expect(me.user.email).to.equal(EMAIL)
  })

  it('the same start with a Paystack key and no SMS provider or SMTP: 503 "done by support", /forgot says so, start-up warns', async () => {
    shop = await startShopLikeNpmStart(dataDir, {
      PAYSTACK_SECRET_KEY: 'sk_test_fresh',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
      PAYER_EMAIL_DOMAIN: 'customers.example.com'
    })
    expect(shop.output()).to.include('self-service password reset is off')
    const api = await new Client(shop.url).post('/api/auth/forgot', { identifier: PHONE })
    expect(api.status).to.equal(503)
    expect(api.body.error).to.equal(BY_SUPPORT)
    const page = await newPage(browser, { width: 360 })
    await page.goto(`${shop.url}/forgot`)
    await hydrated(page)
    await waitText(page, 'Password reset is done by support.')
    expect(await page.$('#identifier')).to.equal(null)
  })
})
