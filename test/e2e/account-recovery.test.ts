import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, fitsPhone, goto, hydrated, login, newPage, tap, url } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createAgent } from '../helpers/factories.ts'
import { ADMIN, app } from '../helpers/server.ts'

/** The admin's SMS outbox page stands in for the phone on a fresh machine: the newest code for a number. */
async function codeFromOutboxPage(admin: Page, phone: string): Promise<string> {
  await app().services.recovery.settled()
  await goto(admin, '/admin/sms')
  await admin.waitForSelector(`[data-outbox-row="${phone}"] [data-outbox-message]`)
  const text = await admin.$eval(`[data-outbox-row="${phone}"] [data-outbox-message]`, (e) => (e as HTMLElement).innerText)
  const code = /reset code: (\d{6})/.exec(text)?.[1]
  expect(code, text).to.match(/^\d{6}$/)
  return code!
}

describe('browser: account recovery', function () {
  const browser = browserSuite(this, 180_000, 'each')

  it('forgot -> code from the SMS outbox -> new password -> old refused, new works, an old browser is signed out', async () => {
    const { user, password } = await createAgent({ phone: '0245550001', email: 'ama@example.com' })

    // An old browser, signed in before the reset.
    const old = await newPage(browser, { width: 1024 })
    await login(old, user.email, password)
    expect(new URL(old.url()).pathname).to.match(/^\/agent/)

    const admin = await newPage(browser, { width: 1024 })
    await login(admin, ADMIN.email, ADMIN.password)

    // The person who forgot, on a phone: Sign In -> "Forgot your password?".
    const page = await newPage(browser, { width: 360 })
    await goto(page, '/login')
    await Promise.all([page.waitForNavigation(), tap(page, 'a[href="/forgot"]')])
    await hydrated(page)
    expect(new URL(page.url()).pathname).to.equal('/forgot')
    expect(await fitsPhone(page)).to.equal(true)
    await page.type('#identifier', '0245550001')
    await tap(page, 'button[type=submit]')
    await waitText(page, 'If an account exists, we have sent a code.')
    await Promise.all([page.waitForNavigation(), tap(page, 'a[href="/reset"]')])
    await hydrated(page)
    expect(await page.$eval('#identifier', (e) => (e as HTMLInputElement).value)).to.equal('0245550001')
    expect(await fitsPhone(page)).to.equal(true)

    const code = await codeFromOutboxPage(admin, '0245550001')

    // Confirm field and show/hide.
    await page.type('#code', code)
    await page.type('#newPassword', 'New-secret-42')
    await page.type('#confirmPassword', 'New-secret-4')
    await tap(page, 'button[type=submit]')
    await waitText(page, 'New passwords do not match')
    await page.type('#confirmPassword', '2')
    expect(await page.$eval('#newPassword', (e) => (e as HTMLInputElement).type)).to.equal('password')
    await tap(page, 'button[aria-controls="newPassword confirmPassword"]')
    expect(await page.$eval('#newPassword', (e) => (e as HTMLInputElement).type)).to.equal('text')
    await Promise.all([page.waitForNavigation(), tap(page, 'button[type=submit]')])
    await hydrated(page)
    expect(new URL(page.url()).pathname).to.equal('/login')
    await waitText(page, 'Your password was changed. Log in with your new password.')

    // The old password is refused, the new one works.
    await page.type('#email', user.email)
    await page.type('#password', password)
    await tap(page, 'button[type=submit]')
    await waitText(page, 'Invalid email or password')
    await login(page, user.email, 'New-secret-42')
    expect(new URL(page.url()).pathname).to.match(/^\/agent/)

    // The old browser is signed out on its next request.
    await old.goto(url('/agent/profile'))
    expect(new URL(old.url()).pathname).to.equal('/login')

    // "Log out everywhere else" on the profile signs the old browser out again after it signs back in.
    await login(old, user.email, 'New-secret-42')
    await goto(page, '/agent/profile')
    await page.waitForSelector('[data-logout-everywhere]')
    await tap(page, '[data-logout-everywhere]')
    await waitText(page, 'Signed out everywhere else')
    await old.goto(url('/agent/orders'))
    expect(new URL(old.url()).pathname).to.equal('/login')
    await page.reload()
    expect(new URL(page.url()).pathname).to.equal('/agent/profile')

    // The SMS notice went out too, and no page ever showed the password.
    expect(await bodyText(admin)).to.not.include('New-secret-42')
    await goto(admin, '/admin/sms')
    await waitText(admin, 'password was changed. Not you? Call support')
  })

  it('admin: "Send password reset" on the Agents and Users pages sends a code to the phone and shows none', async () => {
    const { user } = await createAgent({ phone: '0245550002', name: 'Kofi Sells' })
    const admin = await newPage(browser, { width: 1024 })
    await login(admin, ADMIN.email, ADMIN.password)

    await goto(admin, '/admin/agents')
    await admin.waitForSelector(`[data-send-reset="${user.id}"]`)
    await tap(admin, `[data-send-reset="${user.id}"]`)
    await admin.waitForSelector(`[data-confirm-reset="${user.id}"]`)
    await tap(admin, `[data-confirm-reset="${user.id}"]`)
    await waitText(admin, "Password reset code sent to the account's phone.")
    const code = await codeFromOutboxPage(admin, '0245550002')

    await goto(admin, '/admin/users')
    await admin.waitForSelector(`[data-send-reset="${user.id}"]`)
    await tap(admin, `[data-send-reset="${user.id}"]`)
    await tap(admin, `[data-confirm-reset="${user.id}"]`)
    await waitText(admin, "Password reset code sent to the account's phone.")
    expect(await bodyText(admin)).to.not.include(code)
    expect(await app().db.models.AuditLog.count({ where: { action: 'ADMIN_PASSWORD_RESET_SENT' } })).to.equal(2)
  })
})
