import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN } from '../helpers/server.ts'

describe('browser: the shell', function () {
  const browser = browserSuite(this, 60_000, 'each')

  it('renders the home page on the server, then hydrates it', async () => {
    const page = await newPage(browser)
    await page.setJavaScriptEnabled(false)
    await page.goto(url('/'))
    expect(await bodyText(page)).to.include('Buy Data Now')
    const page2 = await newPage(browser)
    await page2.goto(url('/'))
    await hydrated(page2)
    // After hydration the mobile menu button works (React owns the DOM).
    await page2.click('.navbar-burger')
    await page2.waitForSelector('.navbar-menu.is-active')
  })

  it('signs the admin in and lands on /admin/overview; Sign Out ends the session', async () => {
    const page = await newPage(browser, { width: 1280 })
    await login(page, ADMIN.email, ADMIN.password)
    expect(new URL(page.url()).pathname).to.equal('/admin/overview')
    expect(await bodyText(page)).to.include('Admin Panel')
    await hydrated(page)
    const [logout] = await page.$$('xpath/.//button[contains(., "Logout")]')
    await Promise.all([page.waitForNavigation(), logout!.click()])
    expect(new URL(page.url()).pathname).to.equal('/login')
    await page.goto(url('/admin/overview'))
    expect(new URL(page.url()).pathname).to.equal('/login')
  })

  it('shows the login error texts', async () => {
    const page = await newPage(browser)
    await page.goto(url('/login'))
    await hydrated(page)
    await page.click('button[type="submit"]')
    await page.waitForSelector('#login-error')
    expect(await page.$eval('#login-error', (e) => e.textContent)).to.equal('Enter email and password')
    await page.type('#email', ADMIN.email)
    await page.type('#password', 'wrong-password')
    await page.click('button[type="submit"]')
    await page.waitForFunction(() => document.querySelector('#login-error')?.textContent === 'Invalid email or password')
  })

  it('sends a visitor from /admin/orders to /login', async () => {
    const page = await newPage(browser)
    await page.goto(url('/admin/orders'))
    expect(new URL(page.url()).pathname).to.equal('/login')
  })

  it('closes public pages with the maintenance switch and leaves admin pages open', async () => {
    const admin = await adminClient()
    await admin.put('/api/settings', { platformOpen: false, whatsappNumber: '0241234567' })
    const visitor = await newPage(browser)
    await visitor.goto(url('/data-services'))
    expect(new URL(visitor.url()).pathname).to.equal('/')
    const text = await bodyText(visitor)
    expect(text).to.include('Platform Under Maintenance')
    expect(await visitor.$eval('a[href^="https://wa.me/"]', (a) => a.getAttribute('href'))).to.equal('https://wa.me/233241234567')
    const page = await newPage(browser, { width: 1280 })
    await login(page, ADMIN.email, ADMIN.password)
    expect(new URL(page.url()).pathname).to.equal('/admin/overview')
    expect(await bodyText(page)).to.include('MAINTENANCE MODE ACTIVE - Platform is closed to users')
  })

  it('remembers the theme across a reload', async () => {
    const page = await newPage(browser)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }])
    await page.goto(url('/'))
    await hydrated(page)
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('light')
    await page.click('[data-testid="theme-toggle"]')
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark')
    await page.reload()
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark')
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(bg).to.not.equal('rgb(255, 255, 255)')
  })

  it('follows the system preference when nothing is remembered', async () => {
    const page = await newPage(browser)
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await page.goto(url('/login'))
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark')
  })

  it('toggles the portal sidebar with Ctrl+B and remembers it in a cookie', async () => {
    const page = await newPage(browser, { width: 1280 })
    await login(page, ADMIN.email, ADMIN.password)
    await hydrated(page)
    expect(await page.$('.app-shell.is-collapsed')).to.equal(null)
    await page.keyboard.down('Control')
    await page.keyboard.press('b')
    await page.keyboard.up('Control')
    await page.waitForSelector('.app-shell.is-collapsed')
    const cookies = await page.browserContext().cookies()
    const c = cookies.find((x) => x.name === 'sidebar_state')!
    expect(c.value).to.equal('false')
    expect(c.expires - Date.now() / 1000).to.be.within(6.9 * 86400, 7.1 * 86400)
    await page.reload()
    expect(await page.$('.app-shell.is-collapsed')).to.not.equal(null)
  })

  it('warns before the idle session ends, counts down, and extends it', async () => {
    const page = await newPage(browser, { width: 1280 })
    // Shift the page's clock forward on demand: 26 idle minutes pass in an instant.
    await page.evaluateOnNewDocument(() => {
      const real = Date.now.bind(Date)
      ;(window as any).__shift = 0
      Date.now = () => real() + (window as any).__shift
    })
    await login(page, ADMIN.email, ADMIN.password)
    await hydrated(page)
    expect(await page.$('#session-timeout-title')).to.equal(null)
    // Any API answer counts as activity: let the dashboard's first requests finish before the clock jumps.
    await page.waitForNetworkIdle({ idleTime: 500 })
    await page.evaluate(() => ((window as any).__shift = 26 * 60 * 1000))
    await page.waitForSelector('#session-timeout-title')
    const text = await bodyText(page)
    expect(text).to.match(/signed out in [34]:\d\d/)
    const [extend] = await page.$$('xpath/.//button[contains(., "Extend Session")]')
    expect(await page.$$('xpath/.//button[contains(., "Logout Now")]')).to.have.length(1)
    await extend!.click()
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-toast="success"]')].some((t) => t.textContent?.includes('Session extended successfully'))
    )
    expect(await page.$('#session-timeout-title')).to.equal(null)
  })
})
