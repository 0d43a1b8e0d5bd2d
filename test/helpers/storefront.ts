import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { bodyText, hydrated, newPage, url } from './browser.ts'
import { app } from './server.ts'
import type { Browser } from 'puppeteer-core'

// Storefront journey steps shared by the browser tests (a visitor on /data-services, the simulator phone).
export async function clickButton(page: Page, text: string, scope = '') {
  const [el] = await page.$$(`xpath/.${scope}//button[contains(normalize-space(.), "${text}")]`)
  if (!el) throw new Error(`no button "${text}"`)
  await el.click()
}
/** 'I Have Paid', unless the dialog's own watch has already seen the payment end (the button is gone then). */
export async function checkPaidIfPending(page: Page) {
  await page.evaluate(() => {
    const b = [...document.querySelectorAll('[data-testid="payment-dialog"] button')].find((e) => e.textContent?.includes('I Have Paid'))
    ;(b as HTMLButtonElement | undefined)?.click()
  })
}
export async function dismissToasts(page: Page) {
  for (const close of await page.$$('.toast-area .delete')) await close.click().catch(() => {})
  await page.waitForFunction(() => !document.querySelector('.toast-area .notification'))
}
export const waitText = (page: Page, text: string, timeout?: number) =>
  page.waitForFunction((t) => document.body.innerText.includes(t), timeout ? { timeout } : {}, text)
export const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
export const DIALOG = '//*[@data-testid="payment-dialog"]'

export async function startPurchase(page: Page, opts: { recipient: string; payer?: string; email?: string }) {
  await page.goto(url('/data-services'))
  await hydrated(page)
  await page.click(`[data-testid="package-${await mtn1gb()}"]`)
  await page.type('#recipient', opts.recipient)
  if (opts.payer) await page.type('#buy-payer-phone', opts.payer)
  if (opts.email) await page.type('#email', opts.email)
  await page.click('form button[type="submit"]')
  await page.waitForSelector('[data-testid="payment-dialog"]')
  expect(await page.$eval('#payment-dialog-title', (e) => e.textContent)).to.equal('Complete Payment')
  expect(await page.$eval('[data-testid="payment-amount"]', (e) => e.textContent)).to.equal('GH₵5.00')
}

/** The payer approves the prompt (for `amount`) on the simulator phone (another tab). */
export async function approveOnSimulatorPhone(browser: Browser, payer: string, amount = 'GH₵5.00') {
  const phone = await newPage(browser)
  await phone.goto(url(`/simulator/phone?phone=${payer}`))
  await hydrated(phone)
  await phone.waitForSelector('[data-testid="sim-prompt"]')
  expect(await bodyText(phone)).to.include(`Pay ${amount}`)
  await clickButton(phone, 'Approve')
  await phone.waitForSelector('[data-testid="no-prompts"]')
  await phone.close()
}

/** Buys 1GB MTN by mobile money, approves on the simulator phone and completes the order. */
export async function buyAndComplete(browser: Browser, page: Page, opts: { recipient: string; payer: string }) {
  await startPurchase(page, opts)
  await clickButton(page, 'Proceed to Payment', DIALOG)
  await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Pending')
  await approveOnSimulatorPhone(browser, opts.payer)
  await checkPaidIfPending(page)
  await page.waitForFunction(() => document.querySelector('[data-testid="payment-status"]')?.textContent === 'Successful')
  await clickButton(page, 'Complete Order')
  await waitText(page, 'Order placed successfully! Your data will be delivered shortly.')
  await page.waitForFunction(() => !document.querySelector('[data-testid="payment-dialog"]'))
  await dismissToasts(page)
}
