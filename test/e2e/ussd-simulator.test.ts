import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { createPackage, createUser } from '../helpers/factories.ts'
import { ADMIN, app } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'

const screenText = (page: Page) => page.$eval('[data-testid=ussd-screen]', (e) => (e as HTMLElement).innerText)

async function waitScreen(page: Page, text: string) {
  await page.waitForFunction((t) => document.querySelector('[data-testid=ussd-screen]')?.textContent?.includes(t), {}, text)
}

async function answer(page: Page, value: string, expect: string) {
  await page.waitForSelector('#sim-answer')
  await page.type('#sim-answer', value)
  await page.keyboard.press('Enter')
  await waitScreen(page, expect)
}

describe('browser: the USSD simulator', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('is for admins outside development; an admin dials as an agent, enters the PIN, buys data and sees the order', async () => {
    await app().db.models.Package.destroy({ where: {} })
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const { agent, pin } = await ussdAgent({ phone: '0241150001' })

    // A signed-in non-admin is sent to their own area (tests run as NODE_ENV=test, not development).
    const visitor = await createUser({ email: 'visitor@test.local' })
    const page = await newPage(browser, { width: 360 })
    await login(page, visitor.email, visitor.password)
    await page.goto(url('/ussd-simulator'))
    expect(new URL(page.url()).pathname).to.equal('/')
    await page.browserContext().close()

    const admin = await newPage(browser, { width: 360 })
    await login(admin, ADMIN.email, ADMIN.password)
    await admin.goto(url('/ussd-simulator'))
    await hydrated(admin)
    expect(await bodyText(admin)).to.include('USSD Simulator')
    await admin.type('#sim-phone', '0241150001')
    await admin.click('form[aria-label=Dial] button[type=submit]')
    await waitScreen(admin, 'Enter your 4-digit agent PIN')
    expect(await admin.$eval('#sim-answer', (e) => (e as HTMLInputElement).type)).to.equal('password')

    await answer(admin, pin, '1. Buy data')
    await answer(admin, '1', 'choose network')
    await answer(admin, '1', '1.0GB GHS 4.50')
    await answer(admin, '1', 'Send the data to')
    await answer(admin, '2', 'Enter the recipient number')
    await answer(admin, '0551234567', 'Confirm purchase')
    await answer(admin, '1', 'A payment prompt for GHS 4.50 is coming to 0241150001')
    expect(await bodyText(admin)).to.include('Session ended')
    expect(await admin.$('#sim-answer')).to.equal(null)
    // The PIN never shows in the exchange log.
    expect(await admin.$eval('details', (d) => (d as HTMLElement).textContent)).not.to.include(pin)
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).to.equal(true)

    const order = await app().db.models.Order.findOne({ where: { agentId: agent.id } })
    expect(order?.get('channel')).to.equal('ussd')
    expect(order?.get('amountPesewas')).to.equal(450)
    expect(await screenText(admin)).to.match(/Ref \d{8}/)

    // The END screen links to the payer's phone on the payment simulator: approving there settles the order.
    const href = await admin.$eval('a[href^="/simulator/phone"]', (a) => a.getAttribute('href'))
    expect(href).to.equal('/simulator/phone?phone=0241150001')
    await admin.goto(url(href!))
    await hydrated(admin)
    await admin.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Approve'))
    await admin.evaluate(() => ([...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Approve') as HTMLElement).click())
    const until = Date.now() + 10_000
    while ((await order!.reload()).get('paymentStatus') !== 'SUCCESS' && Date.now() < until) await new Promise((r) => setTimeout(r, 200))
    expect(order!.get('paymentStatus')).to.equal('SUCCESS')
  })
})
