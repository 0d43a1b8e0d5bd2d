import Joi from 'joi'
import type { TierMoveInput } from '../../../services/pricing/tier-order.ts'
import type { TierInput, TierPricesInput } from '../../../services/pricing/tiers.ts'

// One schema per endpoint of /api/admin/tiers that takes a body, bound to the type its service takes.

/** POST /api/admin/tiers: a new tier (no id) or an edit. */
export const tierBody = Joi.object<TierInput>({
  id: Joi.number().integer().min(1).max(2_147_483_647),
  name: Joi.string().trim().min(2).max(40).required().messages({ '*': 'Tier name must be 2 to 40 characters' }),
  promoteAt: Joi.number()
    .min(0.01)
    .max(100_000_000)
    .precision(2)
    .allow(null)
    .default(null)
    .messages({ '*': 'Promotion threshold must be an amount in GHS (or empty)' }),
  mayInvite: Joi.boolean().default(false).messages({ '*': 'mayInvite must be true or false' }),
  parentsApprove: Joi.boolean().default(false).messages({ '*': 'parentsApprove must be true or false' })
}).options({ stripUnknown: true })

/** POST /api/admin/tiers/:id/move */
export const moveBody = Joi.object<TierMoveInput>({
  direction: Joi.string().valid('up', 'down').required().messages({ '*': 'direction must be up or down' })
}).options({ stripUnknown: true })

/** PUT /api/admin/tiers/prices/:packageId */
export const pricesBody = Joi.object<TierPricesInput>({
  prices: Joi.array()
    .max(100)
    .required()
    .items(
      Joi.object({
        tierId: Joi.number().integer().min(1).max(2_147_483_647).required(),
        price: Joi.number().min(0.01).max(100000).precision(2).allow(null).required()
      })
    )
    .messages({ '*': 'Send prices as a list of tierId and price (GHS, or null for the tier above)' })
}).options({ stripUnknown: true })
