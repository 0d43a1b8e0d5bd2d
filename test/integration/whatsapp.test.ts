import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { signBody } from '../../server/services/whatsapp/webhook.ts'
import { inbound, statusEvent } from '../fakes/whatsapp-graph.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { whatsappInstance, words } from '../helpers/whatsapp.ts'

const VERIFY = 'wa-verify-token-for-tests'

// An instance with a WhatsApp account whose Graph API is a local fake (test/fakes/whatsapp-graph.ts).
describe('WhatsApp ordering (fake Graph API)', function () {
  this.timeout(60_000)
  let chat: Awaited<ReturnType<typeof whatsappInstance>>
  let graph: typeof chat.graph
  let wa: typeof chat.wa
  const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const post = (body: unknown, signature?: string) => chat.post(body, signature)
  const say: typeof chat.say = (from, message) => chat.say(from, message)

  before(async () => {
    chat = await whatsappInstance({ WHATSAPP_VERIFY_TOKEN: VERIFY })
    graph = chat.graph
    wa = chat.wa
  })
  after(async () => {
    await chat?.stop()
  })
  beforeEach(async () => {
    await resetDb()
    wa.services.settings.invalidate()
    graph.sent.length = 0
    graph.requests.length = 0
    await app().db.models.Package.destroy({ where: {} })
  })
  afterEach(() => {
    // Every call to the Graph API was well formed and authorised (the fake checks shape and token).
    expect(
      graph.requests.filter((r) => r.status !== 200),
      JSON.stringify(graph.requests.filter((r) => r.status !== 200))
    ).to.deep.equal([])
  })

  it("answers Meta's GET verification with the challenge only for the right verify token", async () => {
    const ok = await fetch(`${wa.url}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`)
    expect(ok.status).to.equal(200)
    expect(await ok.text()).to.equal('1158201444')
    const bad = await fetch(`${wa.url}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1158201444`)
    expect(bad.status).to.equal(403)
    expect(await bad.text()).to.not.contain('1158201444')
  })

  it('a conversation from "hi" to a delivered order: every message the customer sees, the order on channel whatsapp, a receipt at delivery', async () => {
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const me = '233241170001'
    let seen = await say(me, { text: 'hi' })
    expect(words(seen)).to.deep.equal(['Hello! Welcome to Data Hub. Buy data bundles right here in the chat.', 'What would you like to do?'])
    expect(seen[1]!.body).to.deep.include({ messaging_product: 'whatsapp', to: me, type: 'interactive' })
    expect(seen[1]!.body.interactive.action.buttons.map((b: any) => b.reply.title)).to.deep.equal(['Buy data', 'My orders', 'Talk to a person'])
    expect(graph.requests.every((r) => r.auth === `Bearer ${graph.token}` && r.path === `/${graph.version}/${graph.phoneNumberId}/messages`)).to.equal(true)

    seen = await say(me, { replyId: 'menu:buy', title: 'Buy data' })
    expect(words(seen)).to.deep.equal(['Choose the network of the number that gets the data.'])
    expect(seen[0]!.body.interactive.type).to.equal('list')
    expect(seen[0]!.body.interactive.action.sections[0].rows.map((r: any) => r.title)).to.deep.equal(['MTN', 'Telecel', 'AirtelTigo'])

    seen = await say(me, { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' })
    expect(words(seen)).to.deep.equal(['MTN bundles: choose one.'])
    expect(seen[0]!.body.interactive.action.sections[0].rows).to.deep.equal([{ id: `pkg:${pkg.id}`, title: '1.0GB', description: 'GHS 5.00' }])

    seen = await say(me, { replyId: `pkg:${pkg.id}`, title: '1.0GB', kind: 'list_reply' })
    expect(words(seen)).to.deep.equal(['1.0GB MTN for GHS 5.00. Who gets the data?'])

    seen = await say(me, { replyId: 'to:other', title: 'Another number' })
    expect(words(seen)).to.deep.equal(['Type the number that gets the data (like 0241234567).'])
    seen = await say(me, { text: '12345' })
    expect(words(seen)[0]).to.match(/Type it again/)
    seen = await say(me, { text: '0551234567' })
    expect(words(seen)).to.deep.equal(['How would you like to pay?'])
    expect(seen[0]!.body.interactive.action.buttons.map((b: any) => b.reply.title)).to.deep.equal(['Pay by mobile money', 'Get a payment link'])
    seen = await say(me, { replyId: 'pay:momo', title: 'Pay by mobile money' })
    expect(words(seen)).to.deep.equal(['Which mobile money number should get the payment prompt?'])

    seen = await say(me, { replyId: 'pay:me', title: 'This number' })
    expect(words(seen)).to.deep.equal(['Please confirm: 1.0GB MTN for 0551234567. Price: GHS 5.00. The payment prompt goes to 0241170001.'])

    seen = await say(me, { replyId: 'confirm', title: 'Confirm and pay' })
    const [order] = await sql<any>(`SELECT * FROM orders`)
    expect(order).to.include({
      channel: 'whatsapp',
      user_id: null,
      agent_id: null,
      recipient_number: '0551234567',
      payment_phone_number: '0241170001',
      amount_pesewas: 500
    })
    const ref = String(order.payment_transaction_id).slice(-8)
    expect(words(seen)).to.deep.equal([
      `Order placed (ref ${ref}). A payment prompt for GHS 5.00 is coming to 0241170001. Approve it to pay; we will message you when the data is delivered.`
    ])

    // The payer approves the prompt (the payment simulator plays the phone): paid, delivered, a receipt.
    await wa.services.simulator.approve(order.payment_transaction_id)
    const before = graph.sent.length
    await wa.services.queue.drain()
    const [done] = await sql<any>(`SELECT payment_status, delivery_status FROM orders_view WHERE id = :id`, { id: order.id })
    expect(done).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'DELIVERED' })
    expect(words(graph.sent.slice(before))).to.deep.equal([`Delivered: 1.0GB MTN to 0551234567 (ref ${ref}). Thank you for buying with us!`])

    seen = await say(me, { replyId: 'menu:orders', title: 'My orders' })
    expect(words(seen)).to.deep.equal([
      `Your last orders:\n• 1.0GB MTN to 0551234567, GHS 5.00: Successful, delivered (ref ${ref})`,
      'What would you like to do?'
    ])

    // Meta's status callbacks move the bot's messages along (never backwards).
    const last = graph.sent.at(-1)!
    expect((await post(statusEvent(last.id, 'read', me))).status).to.equal(200)
    expect((await post(statusEvent(last.id, 'delivered', me))).status).to.equal(200)
    expect((await sql<any>(`SELECT status FROM whatsapp_messages WHERE wamid = :w`, { w: last.id }))[0].status).to.equal('read')
  })

  it('a Telecel payer sends the voucher in the chat; it goes with the queued charge', async () => {
    const pkg = await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900 })
    const me = '233501170002'
    await say(me, { text: 'hi' })
    await say(me, { replyId: 'menu:buy', title: 'Buy data' })
    await say(me, { replyId: 'net:TELECEL', title: 'Telecel', kind: 'list_reply' })
    await say(me, { replyId: `pkg:${pkg.id}`, title: '2.0GB', kind: 'list_reply' })
    await say(me, { replyId: 'to:me', title: 'This number' })
    await say(me, { replyId: 'pay:momo', title: 'Pay by mobile money' })
    expect(words(await say(me, { replyId: 'pay:me', title: 'This number' }))).to.deep.equal([
      'Telecel Cash needs a voucher: dial *110#, choose Generate Voucher, then send the 6-digit voucher here.'
    ])
    expect(words(await say(me, { text: '12' }))).to.deep.equal(['Send the 6-digit voucher from *110# (Generate Voucher).'])
    expect(words(await say(me, { text: '123456' }))).to.deep.equal([
      'Please confirm: 2.0GB Telecel for 0501170002. Price: GHS 9.00. The payment prompt goes to 0501170002.'
    ])
    await say(me, { replyId: 'confirm', title: 'Confirm and pay' })
    const [p] = await sql<any>(`SELECT payer_network, details FROM payments`)
    expect(p.payer_network).to.equal('TELECEL')
  })

  it('a confirmation answered again (the job run twice after a crash) finds its order instead of placing a second one', async () => {
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500 })
    const me = '233241170007'
    const [pkg] = await sql<any>(`SELECT id FROM packages`)
    for (const m of [
      { text: 'hi' },
      { replyId: 'menu:buy', title: 'Buy data' },
      { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' as const },
      { replyId: `pkg:${pkg.id}`, title: '1.0GB', kind: 'list_reply' as const },
      { replyId: 'to:me', title: 'This number' },
      { replyId: 'pay:momo', title: 'Pay by mobile money' },
      { replyId: 'pay:me', title: 'This number' }
    ])
      await say(me, m)
    const [before] = await sql<any>(`SELECT state FROM whatsapp_chats WHERE wa_id = :me`, { me })
    const first = words(await say(me, { replyId: 'confirm', title: 'Confirm and pay' }))
    // As if the turn's commit had been lost after the order was placed: the message unhandled, the state as it was.
    await sql(`UPDATE whatsapp_messages SET handled_at = NULL WHERE id = (SELECT max(id) FROM whatsapp_messages WHERE direction = 'in') RETURNING id`)
    await sql(`UPDATE whatsapp_chats SET state = CAST(:state AS jsonb) WHERE wa_id = :me RETURNING wa_id`, { me, state: JSON.stringify(before.state) })
    await wa.services.queue.enqueue('whatsapp.chat', { waId: me })
    const sentBefore = graph.sent.length
    await wa.services.queue.drain()
    expect(words(graph.sent.slice(sentBefore))).to.deep.equal(first)
    expect(await sql(`SELECT id FROM orders`)).to.have.length(1)
    expect(await sql(`SELECT id FROM payments`)).to.have.length(1)
  })

  it('refuses a webhook with a wrong X-Hub-Signature-256 (401) and changes nothing', async () => {
    await createPackage({ network: 'MTN' })
    const body = inbound('233241170003', { id: 'wamid.FORGED', text: 'hi' })
    const forged = await post(body, signBody(JSON.stringify(body), 'not-the-secret'))
    expect(forged.status).to.equal(401)
    expect((await post(body, 'garbage')).status).to.equal(401)
    const unsigned = await fetch(`${wa.url}/api/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    })
    expect(unsigned.status).to.equal(401)
    await wa.services.queue.drain()
    expect(await sql(`SELECT id FROM whatsapp_messages UNION ALL SELECT 1 FROM whatsapp_chats`)).to.deep.equal([])
    expect(graph.sent).to.deep.equal([])
  })

  it('answers a duplicate delivery of the same message once', async () => {
    const body = inbound('233241170004', { id: 'wamid.TWICE', text: 'hi' })
    const first = await post(body)
    const second = await post(body)
    expect(await first.json()).to.include({ received: 1, duplicates: 0 })
    expect(await second.json()).to.include({ received: 0, duplicates: 1 })
    await wa.services.queue.drain()
    expect(graph.texts('233241170004')).to.deep.equal(['Hello! Welcome to Data Hub. Buy data bundles right here in the chat.', 'What would you like to do?'])
  })

  it('refuses a malformed webhook body with 400, never a 500', async () => {
    const res = await post({ object: 'page', entry: 'x' })
    expect(res.status).to.equal(400)
    expect((await res.json()).error).to.match(/Invalid WhatsApp webhook/)
  })

  it('"Talk to a person" hands the chat to the admins: the bot stops, an admin answers, then hands it back', async () => {
    const me = '233241170005'
    await say(me, { text: 'hi' })
    expect(words(await say(me, { replyId: 'menu:human', title: 'Talk to a person' }))).to.deep.equal(['A person from our team will answer you here soon.'])
    expect(await say(me, { text: 'My data did not come' })).to.deep.equal([])

    const admin = new Client(wa.url)
    expect((await admin.login(ADMIN.email, ADMIN.password)).status).to.equal(200)
    const chats = await admin.get('/api/whatsapp/chats')
    expect(chats.body.chats.map((c: any) => c.waId)).to.deep.equal([me])
    const transcript = await admin.get(`/api/whatsapp/chats/${me}`)
    expect(transcript.body.messages.at(-1)).to.include({ direction: 'in', text: 'My data did not come' })
    // The reply is checked once, at the edge, in the spec's words; an unknown chat is still the service's 404.
    const refused = await Promise.all([{ text: '' }, {}, { text: 'x'.repeat(4097) }].map((b) => admin.post(`/api/whatsapp/chats/${me}/reply`, b)))
    expect(refused.map((r) => [r.status, r.body.error])).to.deep.equal([
      [400, 'Please type a message'],
      [400, 'Please type a message'],
      [400, 'Message is too long (4096 characters at most)']
    ])
    expect(await admin.post('/api/whatsapp/chats/233200000000/reply', { text: 'hello' })).to.deep.include({ status: 404 })
    expect((await admin.post(`/api/whatsapp/chats/${me}/reply`, { text: 'Sorry! Sending it again now.' })).status).to.equal(200)
    await wa.services.queue.drain()
    expect(graph.texts(me).at(-1)).to.equal('Sorry! Sending it again now.')
    expect((await new Client(wa.url).get('/api/whatsapp/chats')).status).to.equal(401)

    expect((await admin.post(`/api/whatsapp/chats/${me}/release`)).status).to.equal(200)
    expect(words(await say(me, { text: 'hello' }))).to.deep.equal([
      'Hello! Welcome to Data Hub. Buy data bundles right here in the chat.',
      'What would you like to do?'
    ])
  })

  it('outside the 24-hour window a receipt goes as the approved template', async () => {
    const me = '233241170006'
    await say(me, { text: 'hi' })
    await app().db.sequelize.query(`UPDATE whatsapp_chats SET last_inbound_at = now() - interval '25 hours'`)
    await wa.services.whatsapp.reply(me, 'Your data is on its way.')
    await wa.services.queue.drain()
    const last = graph.sent.at(-1)!
    expect(last.body).to.deep.include({ type: 'template', to: me })
    expect(last.body.template).to.deep.equal({
      name: 'order_update',
      language: { code: 'en' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Your data is on its way.' }] }]
    })
  })
})
