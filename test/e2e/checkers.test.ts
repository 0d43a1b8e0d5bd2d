import { expect } from 'chai'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { adminClient } from '../helpers/http.ts'
import { ADMIN } from '../helpers/server.ts'
import { clickButton } from '../helpers/storefront.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// Result checkers on a phone-sized screen, the built-in payment simulator playing the gateway.
describe('browser: result checkers', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('a visitor buys 2 BECE checkers at 360 px, approves on the simulated phone, sees both cards, and the SMS is in the outbox', async () => {
    await checkerWithStock(await adminClient(), 5)
    const page = await newPage(browser, { width: 360 })
    await page.goto(url('/checkers'))
    await hydrated(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
    await page.click('#checker-quantity', { count: 3 })
    await page.type('#checker-quantity', '2')
    await page.waitForFunction(() => document.querySelector('[data-testid="checker-total"]')?.textContent === 'GH₵40.00')
    await page.type('#checker-payer-phone', '0241239876')
    await clickButton(page, 'Pay')
    await page.waitForSelector('[role="status"] strong')

    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0241239876'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    expect(await bodyText(phone)).to.include('Pay GH₵40.00')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')
    await phone.close()

    await clickButton(page, 'show my cards')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="checker-card"]').length === 2)
    const cards = await page.$$eval('[data-testid="checker-card"]', (els) => els.map((e) => (e as HTMLElement).innerText))
    expect(cards[0]).to.include('S0001').and.include('9000000001')
    expect(cards[1]).to.include('S0002').and.include('9000000002')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)

    // The same browser finds them again under My checkers.
    await page.goto(url('/checkers/mine'))
    await hydrated(page)
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="checker-card"]').length === 2)

    const admin = await newPage(browser)
    await login(admin, ADMIN.email, ADMIN.password)
    await admin.goto(url('/admin/sms'))
    await hydrated(admin)
    await admin.waitForFunction(() => document.body.innerText.includes('S/N S0001 PIN 9000000001; S/N S0002 PIN 9000000002'))
    expect(await bodyText(admin)).to.include('0241239876')
  })
})
