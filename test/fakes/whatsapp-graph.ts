import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for Meta's WhatsApp Cloud API (Graph API): POST /{version}/{phone-number-id}/messages
 * with `Authorization: Bearer <token>` and a JSON message (messaging_product 'whatsapp', to, type and
 * its object: text {body}, interactive {type 'button' | 'list', body {text}, action {...}}, template
 * {name, language {code}}). It checks each request's shape as the Cloud API documents its limits and
 * answers {messaging_product, contacts: [{input, wa_id}], messages: [{id}]}, or {error: {message, type, code}}
 * with 400/401. Every accepted message is recorded; every request too (`requests`).
 */
export interface SentMessage {
  id: string
  to: string
  type: string
  body: any
}

export interface FakeGraph {
  url: string
  version: string
  phoneNumberId: string
  token: string
  sent: SentMessage[]
  requests: { method: string; path: string; auth: string | undefined; body: any; status: number }[]
  /** The words of each sent message as the customer reads them (text body, interactive body, template variable). */
  texts(to?: string): string[]
  close(): Promise<void>
}

function problem(m: any): string | null {
  if (m?.messaging_product !== 'whatsapp') return 'messaging_product must be whatsapp'
  if (typeof m.to !== 'string' || !/^\d{6,15}$/.test(m.to)) return 'to must be a phone number in international digits'
  if (m.type === 'text')
    return typeof m.text?.body === 'string' && m.text.body.length >= 1 && m.text.body.length <= 4096 ? null : 'text.body is required (at most 4096 characters)'
  if (m.type === 'template')
    return typeof m.template?.name === 'string' && typeof m.template?.language?.code === 'string'
      ? null
      : 'template.name and template.language.code are required'
  if (m.type !== 'interactive') return `Unsupported message type ${m.type}`
  const i = m.interactive
  if (typeof i?.body?.text !== 'string' || !i.body.text || i.body.text.length > 1024) return 'interactive.body.text is required (at most 1024 characters)'
  if (i.type === 'button') {
    const buttons = i.action?.buttons
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return 'interactive button messages take 1 to 3 buttons'
    for (const b of buttons) {
      if (b.type !== 'reply' || typeof b.reply?.id !== 'string' || typeof b.reply?.title !== 'string') return 'each button is {type: reply, reply: {id, title}}'
      if (b.reply.title.length > 20 || b.reply.id.length > 256) return 'button title at most 20 characters, id at most 256'
    }
    return null
  }
  if (i.type === 'list') {
    const a = i.action
    if (typeof a?.button !== 'string' || !a.button || a.button.length > 20) return 'list action.button is required (at most 20 characters)'
    const rows = (a.sections ?? []).flatMap((s: any) => s.rows ?? [])
    if (!rows.length || rows.length > 10) return 'a list has 1 to 10 rows'
    for (const r of rows) {
      if (typeof r.id !== 'string' || typeof r.title !== 'string' || r.title.length > 24) return 'each row needs an id and a title of at most 24 characters'
      if (r.description !== undefined && String(r.description).length > 72) return 'row description at most 72 characters'
    }
    return null
  }
  return `Unsupported interactive type ${i?.type}`
}

export async function startFakeGraph(opts: { version?: string; phoneNumberId?: string; token?: string } = {}): Promise<FakeGraph> {
  const version = opts.version ?? 'v21.0'
  const phoneNumberId = opts.phoneNumberId ?? '106540352242922'
  const token = opts.token ?? 'EAAG-test-token'
  const sent: SentMessage[] = []
  const requests: FakeGraph['requests'] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      let body: any = null
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null')
      } catch {
        body = undefined
      }
      const send = (status: number, out: unknown) => {
        requests.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization, body, status })
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(out))
      }
      const err = (status: number, message: string, code: number) => send(status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'FAKE' } })
      if (req.method !== 'POST' || req.url !== `/${version}/${phoneNumberId}/messages`) return err(404, 'Unknown path', 803)
      if (req.headers.authorization !== `Bearer ${token}`) return err(401, 'Invalid OAuth access token', 190)
      if (body === undefined || !String(req.headers['content-type'] ?? '').includes('application/json')) return err(400, 'Body must be JSON', 100)
      const wrong = problem(body)
      if (wrong) return err(400, `(#100) ${wrong}`, 100)
      const id = `wamid.FAKE${crypto.randomBytes(10).toString('hex')}`
      sent.push({ id, to: body.to, type: body.type, body })
      send(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    version,
    phoneNumberId,
    token,
    sent,
    requests,
    texts(to) {
      return sent
        .filter((m) => !to || m.to === to)
        .map((m) =>
          m.type === 'text'
            ? m.body.text.body
            : m.type === 'interactive'
              ? m.body.interactive.body.text
              : (m.body.template.components?.[0]?.parameters?.[0]?.text ?? '')
        )
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** An instance's environment for a WhatsApp account whose Graph API is this fake. */
export function graphEnv(graph: FakeGraph, appSecret: string) {
  return {
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_API_VERSION: graph.version,
    WHATSAPP_PHONE_NUMBER_ID: graph.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: graph.token,
    WHATSAPP_APP_SECRET: appSecret
  }
}

/** A webhook body as Meta sends it for one customer message. */
export function inbound(
  from: string,
  message: { id: string } & ({ text: string } | { replyId: string; title: string; kind?: 'button_reply' | 'list_reply' }),
  name = 'Ama'
): any {
  const base = { from, id: message.id, timestamp: String(Math.floor(Date.now() / 1000)) }
  const m =
    'text' in message
      ? { ...base, type: 'text', text: { body: message.text } }
      : {
          ...base,
          type: 'interactive',
          interactive: { type: message.kind ?? 'button_reply', [message.kind ?? 'button_reply']: { id: message.replyId, title: message.title } }
        }
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [m]
            }
          }
        ]
      }
    ]
  }
}

/** A status callback (sent, delivered, read, failed) for a message the business sent. */
export function statusEvent(wamid: string, status: 'sent' | 'delivered' | 'read' | 'failed', recipient: string): any {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient }]
            }
          }
        ]
      }
    ]
  }
}
