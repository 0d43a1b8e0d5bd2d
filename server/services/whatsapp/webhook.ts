import crypto from 'node:crypto'
import Joi from 'joi'
import { safeEqual } from '../../lib/crypto.ts'
import type { Incoming } from './messages.ts'

/** Meta signs each webhook POST: X-Hub-Signature-256 = 'sha256=' + hex HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(raw: Buffer | undefined, header: unknown, appSecret: string | undefined): boolean {
  if (!raw || !appSecret || typeof header !== 'string' || !header.startsWith('sha256=')) return false
  const expected = `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`
  return safeEqual(header, expected)
}

export function signBody(raw: string | Buffer, appSecret: string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`
}

const message = Joi.object({
  id: Joi.string().max(200).required(),
  from: Joi.string()
    .pattern(/^\d{6,15}$/)
    .required(),
  type: Joi.string().max(40).required(),
  text: Joi.object({ body: Joi.string().allow('').max(4096) }).unknown(true),
  interactive: Joi.object({
    type: Joi.string(),
    button_reply: Joi.object({ id: Joi.string().max(256), title: Joi.string().allow('').max(100) }).unknown(true),
    list_reply: Joi.object({ id: Joi.string().max(256), title: Joi.string().allow('').max(100) }).unknown(true)
  }).unknown(true),
  button: Joi.object({ payload: Joi.string().max(256), text: Joi.string().allow('').max(100) }).unknown(true)
}).unknown(true)

const status = Joi.object({ id: Joi.string().max(200).required(), status: Joi.string().valid('sent', 'delivered', 'read', 'failed').required() }).unknown(true)

const schema = Joi.object({
  object: Joi.string().valid('whatsapp_business_account').required(),
  entry: Joi.array()
    .max(100)
    .items(
      Joi.object({
        changes: Joi.array()
          .max(100)
          .items(
            Joi.object({
              field: Joi.string(),
              value: Joi.object({
                contacts: Joi.array().items(
                  Joi.object({ wa_id: Joi.string(), profile: Joi.object({ name: Joi.string().allow('') }).unknown(true) }).unknown(true)
                ),
                messages: Joi.array().max(100).items(message),
                statuses: Joi.array().max(100).items(status)
              }).unknown(true)
            }).unknown(true)
          )
      }).unknown(true)
    )
    .required()
}).unknown(true)

export interface WebhookBatch {
  messages: Incoming[]
  statuses: { wamid: string; status: 'sent' | 'delivered' | 'read' | 'failed' }[]
}

/** The messages and status callbacks of one webhook body (Meta batches entries and changes). */
export function parseWebhook(body: unknown): { ok: true; batch: WebhookBatch } | { ok: false; error: string } {
  const { value, error } = schema.validate(body ?? {}, { convert: true })
  if (error) return { ok: false, error: error.details[0]!.message.replace(/"/g, '') }
  const batch: WebhookBatch = { messages: [], statuses: [] }
  for (const entry of value.entry) {
    for (const change of entry.changes ?? []) {
      const v = change.value ?? {}
      const names = new Map<string, string>((v.contacts ?? []).map((c: any) => [String(c.wa_id), String(c.profile?.name ?? '')]))
      for (const m of v.messages ?? []) {
        const reply = m.interactive?.button_reply ?? m.interactive?.list_reply ?? (m.button ? { id: m.button.payload, title: m.button.text } : null)
        batch.messages.push({
          wamid: m.id,
          from: m.from,
          name: names.get(m.from) || null,
          text: m.type === 'text' ? String(m.text?.body ?? '') : null,
          replyId: reply?.id ?? null,
          replyTitle: reply?.title ?? null
        })
      }
      for (const s of v.statuses ?? []) batch.statuses.push({ wamid: s.id, status: s.status })
    }
  }
  return { ok: true, batch }
}
