import Joi from 'joi'
import type { WebhookInput } from '../../../services/reseller-api/webhooks.ts'

// One schema per endpoint of /api/reseller that takes a body, bound to the type its service takes.

/** POST /api/reseller/keys */
export const keyBody = Joi.object<{ name: string }>({
  name: Joi.string().trim().min(1).max(60).required().messages({ '*': 'Give the key a name (1 to 60 characters)' })
}).options({ stripUnknown: true })

/** PUT /api/reseller/webhook. Production webhooks go to https only; development and tests may use plain http (a local receiver). */
export const webhookBody = (production: boolean) =>
  Joi.object<WebhookInput>({
    url: Joi.string()
      .trim()
      .max(500)
      .uri({ scheme: production ? ['https'] : ['https', 'http'] })
      // Joi's URI grammar takes ports and IPv4 parts the URL parser refuses (":99999", "300.1.1.1"); the
      // address check and every delivery parse it with URL, so such an address must not be stored.
      .custom((url: string) => new URL(url).href && url)
      .allow('', null)
      .default(null)
      .messages({ '*': production ? 'Webhook URL must be an https:// address' : 'Webhook URL must be an http(s):// address' })
  }).options({ stripUnknown: true })
