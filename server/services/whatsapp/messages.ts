/**
 * What the bot says, in the shapes WhatsApp can show, and how each goes on the wire to the Cloud API
 * (POST /{version}/{phone-number-id}/messages). Meta's limits: at most 3 reply buttons with titles of
 * 20 characters; a list has at most 10 rows, row titles of 24 and descriptions of 72 characters, and
 * its button text is at most 20; a text body is at most 4096 characters (1024 with interactive).
 */
export type Outgoing =
  | { type: 'text'; text: string }
  | { type: 'buttons'; text: string; buttons: { id: string; title: string }[] }
  | { type: 'list'; text: string; button: string; rows: { id: string; title: string; description?: string }[] }

/** A message in from the customer, from a webhook's `messages[]`: typed text or the id of a tapped reply. */
export interface Incoming {
  wamid: string
  from: string
  name: string | null
  text: string | null
  replyId: string | null
  replyTitle: string | null
}

const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`)

/** The Cloud API request body for one message to `to` (digits, international). */
export function toGraph(to: string, m: Outgoing): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to }
  if (m.type === 'text') return { ...base, type: 'text', text: { preview_url: false, body: cut(m.text, 4096) } }
  if (m.type === 'buttons') {
    return {
      ...base,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: cut(m.text, 1024) },
        action: { buttons: m.buttons.slice(0, 3).map((b) => ({ type: 'reply', reply: { id: b.id, title: cut(b.title, 20) } })) }
      }
    }
  }
  return {
    ...base,
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: cut(m.text, 1024) },
      action: {
        button: cut(m.button, 20),
        sections: [
          {
            title: cut(m.button, 24),
            rows: m.rows.slice(0, 10).map((r) => ({ id: r.id, title: cut(r.title, 24), ...(r.description ? { description: cut(r.description, 72) } : {}) }))
          }
        ]
      }
    }
  }
}

/** Outside the 24-hour customer service window only an approved template may be sent: the text rides as its one body variable. */
export function templateOf(to: string, text: string, template: { name: string; language: string }): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      components: [{ type: 'body', parameters: [{ type: 'text', text: cut(text, 1024) }] }]
    }
  }
}

/** The words a person reads of an outgoing message (for the admin page, the simulator and templates). */
export function plainText(m: Outgoing): string {
  if (m.type === 'text') return m.text
  if (m.type === 'buttons') return `${m.text}\n${m.buttons.map((b) => `[${b.title}]`).join(' ')}`
  return `${m.text}\n${m.rows.map((r) => `- ${r.title}${r.description ? ` (${r.description})` : ''}`).join('\n')}`
}
