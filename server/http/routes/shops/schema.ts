import Joi from 'joi'
import type { ShopInput } from '../../../services/shops/index.ts'
import { checkAccent, checkSlug } from '../../../services/shops/rules.ts'

// One schema per endpoint of /api/shops and /api/admin/shops, bound to the type its service takes.
// A shop order's body (POST /api/shops/:slug/orders) is the orders' own, checked with the shop's price
// by the shops service once the shop is found open, for the web and the WhatsApp chat alike.

/** PUT /api/shops/mine: the slug and accent by their rules (slug first, accent last, as the form reads). */
export const shopBody = Joi.object<ShopInput>({
  slug: Joi.any()
    .required()
    .messages({ 'any.required': 'Enter a shop link' })
    .custom((v: unknown) => checkSlug(v)),
  name: Joi.string().trim().min(2).max(60).required().messages({ '*': 'Shop name must be 2 to 60 characters' }),
  description: Joi.string().trim().allow('').max(200).messages({ '*': 'Description must be at most 200 characters' }),
  whatsapp: Joi.string()
    .trim()
    .allow('')
    .pattern(/^(0\d{9}|233\d{9})$/)
    .messages({ '*': 'WhatsApp number must be 0XXXXXXXXX or 233XXXXXXXXX' }),
  // Left out or empty: the service's default (the palette's first).
  accent: Joi.any().custom((v: unknown) => (v === '' ? undefined : checkAccent(v)))
}).options({ stripUnknown: true })

/** PUT /api/shops/mine/whatsapp */
export const whatsappBody = Joi.object<{ on: boolean }>({
  on: Joi.boolean().strict().required().messages({ '*': 'Send on: true or false' })
}).options({ stripUnknown: true })

/** GET /api/shops/mine/series?days= (anything else: 30 days). */
export const seriesQuery = Joi.object<{ days: number }>({
  days: Joi.any().custom((v: unknown) => Number(v) || 30)
})
  .default({})
  .options({ stripUnknown: true })

/** `:id` of /api/admin/shops/:id/... */
export const shopIdParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).max(2_147_483_647).required().messages({ '*': 'Invalid shop id' })
}).options({ stripUnknown: true })

/** POST /api/admin/shops/:id/suspend: the reason, trimmed, its first 300 characters kept. */
export const suspendBody = Joi.object<{ reason: string }>({
  reason: Joi.any()
    .required()
    .custom(
      (v: unknown, h) =>
        String(v ?? '')
          .trim()
          .slice(0, 300) || h.error('any.invalid')
    )
    .messages({ '*': 'Please give a reason for suspending the shop' })
}).options({ stripUnknown: true })
