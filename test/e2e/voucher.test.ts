import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { hydrated, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { app } from '../helpers/server.ts'
import { checkPaidIfPending } from '../helpers/storefront.ts'

// A Telecel payer is asked for a voucher (the simulator does as Paystack does), types it in the dialog, and pays.
async function clickButton(page: Page, text: string, scope = '') {
  const [el] = await page.$$(`xpath/.${scope}//button[contains(normalize-space(.), "${text}")]`)
  if (!el) throw new Error(`no button "${text}"`)
  await el.click()
}
const DIALOG = '//*[@data-testid="payment-dialog"]'

describe('browser: Telecel voucher on the buy page (simulator)', function () {
  const browser = browserSuite(this, 90_000, 'each')

  it('shows the instruction and a code field, refuses a bad voucher, accepts a good one, and ends SUCCESS', async () => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const page = await newPage(browser)
    await page.goto(url('/data-services'))
    await hydrated(page)
    await page.click(`[data-testid="package-${pkg}"]`)
    await page.type('#recipient', '0201112222')
    await page.type('#buy-payer-phone', '0501234567')
    await page.select('#buy-payer-network', 'TELECEL')
    await page.click('form button[type="submit"]')
    await page.waitForSelector('[data-testid="payment-dialog"]')
    await clickButton(page, 'Proceed to Payment', DIALOG)
    await page.waitForSelector('[data-testid="payment-code-form"]')
    expect(await page.$eval('[data-testid="payment-code-instruction"]', (e) => e.textContent)).to.match(/Dial \*110#/)
    expect(await page.$eval('label[for^="payment-code-"]', (e) => e.textContent)).to.equal('Voucher or OTP code')

    // Nothing is on the simulated phone until the voucher is given.
    const phone = await newPage(browser)
    await phone.goto(url('/simulator/phone?phone=0501234567'))
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="no-prompts"]')

    await page.type('[data-testid="payment-code-input"]', '000000')
    await page.click('[data-testid="payment-code-submit"]')
    await page.waitForFunction(() => /Invalid voucher/.test(document.querySelector('[data-testid="payment-code-form"] [role="alert"]')?.textContent ?? ''))
    await page.click('[data-testid="payment-code-input"]', { clickCount: 3 })
    await page.type('[data-testid="payment-code-input"]', '123456')
    await page.click('[data-testid="payment-code-submit"]')
    await page.waitForFunction(() => !document.querySelector('[data-testid="payment-code-form"]'))

    await phone.reload()
    await hydrated(phone)
    await phone.waitForSelector('[data-testid="sim-prompt"]')
    await clickButton(phone, 'Approve')
    await phone.waitForSelector('[data-testid="no-prompts"]')

    await checkPaidIfPending(page)
    await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
    const [p] = await app().db.sequelize.query<{ status: string; payer_network: string }>('SELECT status, payer_network FROM payments', {
      type: 'SELECT' as never
    })
    expect(p).to.deep.equal({ status: 'SUCCESS', payer_network: 'TELECEL' })
  })
})
