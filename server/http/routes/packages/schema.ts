import Joi from 'joi'
import { roundGhs, toPesewas } from '../../../lib/money.ts'
import { NETWORKS } from '../../../lib/vocabulary.ts'
import { MB_PER_GB, MIN_SIZE_MB, type PackageInput } from '../../../services/packages/admin.ts'

// One schema per endpoint of /api/packages, bound to the type its service takes.

// A price is at least 1 pesewa after rounding (0.004 is not a price); that the agent price is never
// above the user price is the service's rule, with its own message.
const price = Joi.number()
  .max(100000)
  .custom((v: number, h) => (toPesewas(v) >= 1 ? roundGhs(v) : h.error('price.zero')))
  .messages({ 'price.zero': '{#label} must be at least 0.01 GHS' })

/** POST /api/packages: creates, or updates when an id is given. */
export const saveBody = Joi.object<PackageInput>({
  id: Joi.number().integer().min(1),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .required(),
  sizeMB: Joi.number()
    .integer()
    .min(MIN_SIZE_MB)
    .max(1024 * MB_PER_GB)
    .required(),
  priceUser: price.required(),
  priceAgent: price.allow(null),
  active: Joi.boolean().default(true),
  name: Joi.string().trim().max(60).allow('', null)
}).options({ stripUnknown: true, convert: true })
