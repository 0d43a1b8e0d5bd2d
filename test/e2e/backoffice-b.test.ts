import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'puppeteer-core'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { Client } from '../helpers/http.ts'
import { createAgent, createUser } from '../helpers/factories.ts'
import { ADMIN, app } from '../helpers/server.ts'

const models = () => app().db.models

async function clickText(page: Page, selector: string, text: string) {
  await page.waitForFunction(
    (s, t) => [...document.querySelectorAll(s)].some((e) => (e as HTMLElement).innerText.trim() === t && !(e as HTMLButtonElement).disabled),
    {},
    selector,
    text
  )
  const handles = await page.$$(selector)
  for (const h of handles) {
    if ((await h.evaluate((e) => (e as HTMLElement).innerText.trim())) === text) return h.click()
  }
  throw new Error(`no ${selector} with text ${text}`)
}

const waitToast = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.toast-area .notification')].some((n) => n.textContent?.includes(t)), {}, text)

/** Toasts sit over the bottom of a phone screen, as for a real user: close them before clicking there. */
async function dismissToasts(page: Page) {
  for (const b of await page.$$('.toast-area .delete')) await b.click()
  await page.waitForFunction(() => !document.querySelector('.toast-area .notification'))
}

async function clearAndType(page: Page, selector: string, text: string) {
  await page.focus(selector)
  await page.keyboard.down('Control')
  await page.keyboard.press('KeyA')
  await page.keyboard.up('Control')
  await page.keyboard.press('Backspace')
  await page.type(selector, text)
}

async function adminPage(browser: Browser, path: string, width = 360): Promise<Page> {
  const page = await newPage(browser, { width })
  await login(page, ADMIN.email, ADMIN.password)
  await page.goto(url(path))
  await hydrated(page)
  return page
}

describe('browser: back office B (users, packages, settings, whitelist, messaging)', function () {
  const browser = browserSuite(this, 90_000, 'each')

  it('admin edits a package price at 360 px; a visitor sees the new price on /data-services', async () => {
    const page = await adminPage(browser, '/admin/packages')
    const pkg = (await models().Package.findOne({ where: { network: 'MTN', sizeMb: 1024 }, raw: true })) as any
    await page.click(`tr[data-package-id="${pkg.id}"] button`)
    await page.waitForSelector('#pkg-price-user')
    expect(await page.$eval('#pkg-size', (e) => (e as HTMLInputElement).value)).to.equal('1')
    // The form's own check first: a negative price is refused with the spec text.
    await clearAndType(page, '#pkg-price-user', '-1')
    await clickText(page, 'button', 'Update Package')
    await waitToast(page, 'Fill all fields correctly')
    await clearAndType(page, '#pkg-price-user', '6.5')
    await clickText(page, 'button', 'Update Package')
    await waitToast(page, 'Package updated')
    await page.waitForFunction((id) => document.querySelector(`tr[data-package-id="${id}"]`)?.textContent?.includes('GH₵6.50'), {}, pkg.id)
    expect((await models().Package.findByPk(pkg.id))!.get('priceUserPesewas')).to.equal(650)

    // Create one: 1.5 GB stored as 1536 MB.
    await clickText(page, 'button', 'Add Package')
    await page.select('#pkg-network', 'TELECEL')
    await page.type('#pkg-size', '1.5')
    await page.type('#pkg-price-user', '7')
    await clickText(page, 'button', 'Create Package')
    await waitToast(page, 'Package created')
    expect(await models().Package.count({ where: { network: 'TELECEL', sizeMb: 1536 } })).to.equal(1)

    const served = await new Client().get('/api/packages?network=MTN')
    expect(served.body.find((p: any) => p.id === pkg.id)).to.deep.include({ priceUser: 6.5 })
    // The storefront (MTN is its default network) shows a visitor the new price.
    const visitor = await newPage(browser)
    await visitor.goto(url('/data-services'))
    await hydrated(visitor)
    expect(await visitor.$eval(`[data-testid="package-${pkg.id}"]`, (e) => (e as HTMLElement).innerText)).to.include('GH₵6.50')
  })

  it('admin filters users, changes another user role from the row menu; no menu on the own row', async () => {
    const customer = await createUser({ name: 'Ama Customer' })
    await createAgent({ name: 'Kofi Agent' })
    const page = await adminPage(browser, '/admin/users', 1280)
    await page.waitForSelector('[data-showing]')
    expect(await page.$eval('[data-showing]', (e) => e.textContent)).to.equal('Showing 1 to 3 of 3 results')
    expect(await page.$(`[data-role-menu="${ADMIN.email}"]`)).to.equal(null)
    expect(await bodyText(page)).to.include('Approved')

    await page.click(`[data-role-menu="${customer.email}"]`)
    await clickText(page, `[data-user-row="${customer.email}"] [role="menuitemradio"]`, 'Agent')
    await waitToast(page, 'User role updated successfully')
    expect((await models().User.findByPk(customer.id))!.get('role')).to.equal('AGENT')

    await page.select('#users-role', 'ADMIN')
    await clickText(page, 'button', 'Apply Filters')
    await page.waitForFunction(() => document.querySelector('[data-showing]')?.textContent === 'Showing 1 to 1 of 1 results')
    await page.select('#users-agent-status', 'rejected')
    await clickText(page, 'button', 'Apply Filters')
    await page.waitForFunction(() => document.body.innerText.includes('No users found'))
    expect(await bodyText(page)).to.include('Try adjusting your filters or search criteria.')
  })

  it('admin sends a message to two agents and sees Read/Unread per recipient in history, then deletes it', async () => {
    const a = await createAgent({ name: 'Abena Reads' })
    const b = await createAgent({ name: 'Yaw Unread' })
    const page = await adminPage(browser, '/admin/messaging', 1280)
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.accept()
    })
    await page.waitForFunction(() => document.querySelector('[data-stat="Total Agents"]')?.textContent === '2')
    await clickText(page, 'button', 'New Message')
    await page.type('#msg-title', 'Weekend promo')
    await page.select('#msg-priority', 'HIGH')
    await page.type('#msg-body', 'MTN bundles are 10% off this weekend.')
    expect(await page.$eval('#new-message button[type="submit"]', (e) => (e as HTMLButtonElement).disabled)).to.equal(true)
    await clickText(page, 'button', 'Select All')
    expect(await page.$eval('[data-selected-count]', (e) => e.textContent)).to.equal('2 of 2 agents selected')
    await page.click('#new-message button[type="submit"]')
    await page.waitForFunction(() => !document.querySelector('#new-message'))
    expect(dialogs).to.deep.equal(['Message sent successfully!'])

    const msg = (await models().AdminMessage.findOne({ raw: true })) as any
    const agent = new Client()
    await agent.login(a.user.email, a.password)
    expect((await agent.patch(`/api/admin-messages/${msg.id}/read`)).status).to.equal(200)

    await page.goto(url('/admin/messaging/history'))
    await hydrated(page)
    await page.waitForSelector('[data-message="Weekend promo"]')
    const state = await page.$$eval('[data-message="Weekend promo"] [data-recipient]', (els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-recipient'), e.querySelector('.tag')?.textContent]))
    )
    expect(state).to.deep.equal({ [a.user.email]: 'Read', [b.user.email]: 'Unread' })
    await page.select('#history-priority', 'LOW')
    await page.waitForFunction(() => document.body.innerText.includes('No messages found.'))
    await page.select('#history-priority', '')
    await page.waitForSelector('[data-message="Weekend promo"]')
    await clickText(page, 'button', 'Delete')
    await page.waitForFunction(() => !document.querySelector('[data-message="Weekend promo"]'))
    expect(dialogs.slice(1)).to.deep.equal(['Are you sure you want to delete this message? This action cannot be undone.', 'Message deleted successfully!'])
    expect(await models().AdminMessage.count()).to.equal(0)
  })

  it('admin bulk-imports whitelist numbers, searches either spelling, and switches the whitelist on', async () => {
    const page = await adminPage(browser, '/admin/ussd-whitelist')
    await page.waitForFunction(() => document.body.innerText.includes('No whitelisted numbers yet.'))
    await clickText(page, 'button', 'Bulk Import')
    await clickText(page, '.modal button', 'Import')
    await waitToast(page, 'Please enter phone numbers')
    await page.type('#bulk-text', '0241234567\n233241234567, 0551234567; abc')
    await clickText(page, '.modal button', 'Import')
    await waitToast(page, 'Bulk import completed! Added: 2, Skipped: 1, Errors: 1')
    const styles = await page.$$eval('.toast-area .notification', (els) =>
      els.filter((e) => e.textContent?.includes('Bulk import')).map((e) => e.getAttribute('data-toast'))
    )
    expect(styles).to.deep.equal(['error'])
    await page.waitForSelector('tr[data-phone="0551234567"]')
    expect((await page.$$('tr[data-phone]')).length).to.equal(2)

    // CSV mode: the first column of each line, header skipped.
    await dismissToasts(page)
    await clickText(page, 'button', 'Bulk Import')
    await page.click('input[name="bulk-mode"]:not(:checked)')
    await clickText(page, '.modal button', 'Import')
    await waitToast(page, 'Please select a CSV file')
    const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wl-')), 'numbers.csv')
    fs.writeFileSync(csv, 'phone,name\n"233201112233",Ama\n0241234567,Kofi\n')
    const input = (await page.$('#bulk-file'))!
    await (input as import('puppeteer-core').ElementHandle<HTMLInputElement>).uploadFile(csv)
    await clickText(page, '.modal button', 'Import')
    await waitToast(page, 'Bulk import completed! Added: 1, Skipped: 1, Errors: 0')
    await page.waitForSelector('tr[data-phone="0201112233"]')

    await page.type('#whitelist-search', '233551')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-phone]').length === 1)
    expect(await page.$('tr[data-phone="0551234567"]')).to.not.equal(null)

    await page.click('#whitelist-enabled')
    await waitToast(page, 'USSD whitelist enabled')
    app().services.settings.invalidate()
    expect((await app().services.settings.get()).ussdWhitelistEnabled).to.equal(true)
    expect(await app().services.whitelist.isAllowed('233551234567')).to.equal(true)
    expect(await app().services.whitelist.isAllowed('0209999999')).to.equal(false)
  })

  it('admin closes the platform from Settings: visitors get the maintenance page, the admin keeps the back office', async () => {
    const page = await adminPage(browser, '/admin/settings')
    for (const tab of ['General', 'Payments', 'Commission', 'Messaging', 'Notifications', 'Schedule']) {
      expect(await page.$(`#tab-${tab}`), tab).to.not.equal(null)
    }
    await page.click('#tab-Commission')
    await clearAndType(page, '#s-commissionPercentage', '150')
    await clickText(page, 'button', 'Save Settings')
    await waitToast(page, 'Commission percentage must be between 0 and 100')
    await dismissToasts(page)
    await clearAndType(page, '#s-commissionPercentage', '12.5')
    await page.click('#tab-General')
    await page.click('#s-platformOpen')
    await clickText(page, 'button', 'Save Settings')
    await waitToast(page, 'Settings saved')
    await page.waitForFunction(() => document.body.innerText.includes('MAINTENANCE MODE ACTIVE - Platform is closed to users'), { timeout: 10_000 })
    const saved = await app().services.settings.get()
    expect(saved).to.include({ platformOpen: false, commissionPercentage: 12.5 })

    const visitor = await newPage(browser)
    await visitor.goto(url('/'))
    expect(await bodyText(visitor)).to.include('Platform Under Maintenance')
    await page.goto(url('/admin/overview'))
    expect(new URL(page.url()).pathname).to.equal('/admin/overview')
    expect(await bodyText(page)).to.not.include('Platform Under Maintenance')
    expect(await bodyText(page)).to.include('MAINTENANCE MODE ACTIVE')
  })
})
