import { expect } from 'chai'
import type { Browser, Page } from 'puppeteer-core'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { describeViolations, axe } from '../helpers/axe.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app } from '../helpers/server.ts'

/** Waits until the chat shows a bot message with this text. */
async function botSays(page: Page, text: string) {
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('[data-direction=out] [data-testid=wa-text]')].some((e) => e.textContent?.includes(t)),
    { timeout: 15_000 },
    text
  )
}

/** Taps a reply button of the newest bot message. */
async function tap(page: Page, title: string) {
  await page.waitForFunction(
    (t) =>
      [...document.querySelectorAll('[data-testid=wa-chat] .buttons button')].some((b) => b.textContent?.startsWith(t) && !(b as HTMLButtonElement).disabled),
    {},
    title
  )
  await page.evaluate((t) => {
    const all = [...document.querySelectorAll('[data-testid=wa-chat] .buttons button')] as HTMLButtonElement[]
    all
      .filter((b) => b.textContent?.startsWith(t) && !b.disabled)
      .at(-1)!
      .click()
  }, title)
}

/** An admin at 360 px opens the simulator and starts a chat as this customer. */
async function openChat(browser: Browser, phone: string): Promise<Page> {
  const page = await newPage(browser, { width: 360 })
  await login(page, ADMIN.email, ADMIN.password)
  await page.goto(url('/simulator/whatsapp'))
  await hydrated(page)
  await page.type('#wa-phone', phone)
  await page.click('form[aria-label="Start a chat"] button[type=submit]')
  await page.waitForSelector('#wa-text')
  return page
}

async function type(page: Page, text: string) {
  await page.type('#wa-text', text)
  await page.keyboard.press('Enter')
}

describe('browser: the WhatsApp simulator', function () {
  const browser = browserSuite(this, 120_000, 'each')

  it('at 360 px a customer chats from "hi" to a paid, delivered order', async () => {
    await app().db.models.Package.destroy({ where: {} })
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500 })
    const page = await openChat(browser, '0241180001')
    expect(await bodyText(page)).to.include('WhatsApp Simulator')

    await type(page, 'hi')
    await botSays(page, 'Hello! Welcome to Data Hub.')
    await botSays(page, 'What would you like to do?')
    await tap(page, 'Buy data')
    await botSays(page, 'Choose the network')
    await tap(page, 'MTN')
    await botSays(page, 'MTN bundles: choose one.')
    await tap(page, '1.0GB (GHS 5.00)')
    await botSays(page, '1.0GB MTN for GHS 5.00. Who gets the data?')
    await tap(page, 'Another number')
    await botSays(page, 'Type the number that gets the data')
    await type(page, '0551234567')
    await botSays(page, 'How would you like to pay?')
    await tap(page, 'Pay by mobile money')
    await botSays(page, 'Which mobile money number should get the payment prompt?')
    await tap(page, 'This number')
    await botSays(page, 'Please confirm: 1.0GB MTN for 0551234567. Price: GHS 5.00. The payment prompt goes to 0241180001.')
    await tap(page, 'Confirm and pay')
    await botSays(page, 'A payment prompt for GHS 5.00 is coming to 0241180001')

    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)

    const [order] = await app().db.sequelize.query<any>(`SELECT id, channel, payment_transaction_id FROM orders`, { type: 'SELECT' as any })
    expect(order.channel).to.equal('whatsapp')
    await app().services.simulator.approve(order.payment_transaction_id)
    await app().services.queue.drain()
    // The receipt is sent by the queue; the chat polls and shows it.
    await botSays(page, 'Delivered: 1.0GB MTN to 0551234567')

    // The admins' order list says where the order came from.
    await page.goto(url('/admin/orders'))
    await page.waitForSelector('[data-channel=whatsapp]')
    expect(await page.$eval('[data-channel=whatsapp]', (e) => e.textContent)).to.equal('WhatsApp')
  })

  it('at 360 px a shop customer names the shop, gets its price and a payment link; the pay page fits the phone in dark mode and sends the prompt', async () => {
    await app().db.models.Package.destroy({ where: {} })
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const a = await createAgent()
    await app().services.settings.update({ shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20 }, {})
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    expect((await c.put('/api/shops/mine', { slug: 'kofi-data', name: 'Kofi Data Plug', description: '', whatsapp: '', accent: '#1565c0' })).status).to.equal(
      200
    )
    expect((await c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })).status).to.equal(200)
    expect((await c.put('/api/shops/mine/whatsapp', { on: true })).status).to.equal(200)

    const page = await openChat(browser, '0241180003')
    await type(page, 'Hi! I want to buy data from shop kofi-data')
    await botSays(page, 'Hello! Welcome to Kofi Data Plug.')
    await tap(page, 'Buy data')
    await tap(page, 'MTN')
    await tap(page, '1.0GB (GHS 5.20)')
    await tap(page, 'This number')
    await botSays(page, 'How would you like to pay?')
    await tap(page, 'Get a payment link')
    await botSays(page, 'Price: GHS 5.20. You will get a link to pay on our site.')
    await tap(page, 'Confirm and pay')
    await botSays(page, 'Pay GHS 5.20 for your order')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)

    const [said] = await app().db.sequelize.query<any>(`SELECT body FROM whatsapp_messages WHERE body->>'text' LIKE 'Pay GHS%'`, { type: 'SELECT' as any })
    const token = /\/pay\/([\w-]+)/.exec(said.body.text)![1]!
    const payer = await newPage(browser, { width: 360 })
    await payer.setBypassCSP(true) // axe is injected as a script of the test's own
    await payer.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }])
    await payer.goto(url(`/pay/${token}`))
    await hydrated(payer)
    expect(await payer.$eval('[data-testid=pay-amount]', (e) => e.textContent)).to.equal('GH₵5.20')
    expect(await payer.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
    const violations = await axe(payer)
    expect(violations, describeViolations(violations)).to.deep.equal([])
    await payer.type('#pay-payer-phone', '0241180003')
    await payer.click('form button[type=submit]')
    await payer.waitForSelector('[data-testid=pay-sent]')
    const [order] = await app().db.sequelize.query<any>(`SELECT shop_id, amount_pesewas FROM orders`, { type: 'SELECT' as any })
    expect(order.amount_pesewas).to.equal(520)
  })

  it('"Talk to a person" puts the chat on the admin messaging page, where an admin answers and hands it back', async () => {
    const page = await openChat(browser, '0241180002')
    await type(page, 'hi')
    await tap(page, 'Talk to a person')
    await botSays(page, 'A person from our team will answer you here soon.')
    await type(page, 'My data did not come')
    await page.waitForFunction(() => document.body.innerText.includes('My data did not come'))

    await page.goto(url('/admin/messaging'))
    await hydrated(page)
    await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.includes('0241180002')))
    await page.evaluate(() => ([...document.querySelectorAll('button')].find((b) => b.textContent?.includes('0241180002')) as HTMLButtonElement).click())
    await page.waitForFunction(() => document.querySelector('[data-testid=wa-admin-chat]')?.textContent?.includes('Customer: My data did not come'))
    await page.type('#wa-reply', 'Sorry! Sending it again now.')
    await page.click('form[aria-label="Reply on WhatsApp"] button[type=submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=wa-admin-chat]')?.textContent?.includes('You: Sorry! Sending it again now.'))
    await page.evaluate(() => ([...document.querySelectorAll('button')].find((b) => b.textContent === 'Hand back to the bot') as HTMLButtonElement).click())
    await page.waitForFunction(() => document.body.innerText.includes('No customer is waiting.'))
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360)
  })
})
