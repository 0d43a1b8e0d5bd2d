import Joi from 'joi'
import { badRequest } from '../../lib/errors.ts'
import { formatPesewas } from '../../lib/money.ts'
import { agentPriceOf, shopCeilingOf, type ProductRow } from '../vouchers/index.ts'

/** What a shop may charge for a checker card: at least what its agent pays, at most the product's shop ceiling. Pure rules. */
export function limitsOf(p: ProductRow): { floor: number; ceiling: number } {
  return { floor: agentPriceOf(p), ceiling: shopCeilingOf(p) }
}

/** Throws the clear message for a price outside the product's limits. */
export function checkPrice(p: ProductRow, pricePesewas: number): void {
  const { floor, ceiling } = limitsOf(p)
  if (pricePesewas < floor) throw badRequest(`${p.name}: your price ${formatPesewas(pricePesewas)} is below your agent price of ${formatPesewas(floor)}`)
  if (pricePesewas > ceiling) throw badRequest(`${p.name}: your price ${formatPesewas(pricePesewas)} is above the shop ceiling of ${formatPesewas(ceiling)}`)
}

export const checkerPricesSchema = Joi.object({
  prices: Joi.array()
    .min(1)
    .max(200)
    .required()
    .items(
      Joi.object({
        productId: Joi.number().integer().min(1).max(2_147_483_647).required(),
        // null: not sold in this shop
        price: Joi.number().min(0.01).max(100000).precision(2).allow(null).required()
      })
    )
    .messages({ '*': 'Send checker prices as a list of productId and price (price in GHS, or null to stop selling it)' })
}).options({ stripUnknown: true })

export const shopBuySchema = Joi.object({
  productId: Joi.number().integer().min(1).max(2_147_483_647).required().messages({ '*': 'Choose a checker' }),
  // The price per card the buyer saw and confirmed, in GHS: the purchase is made at it or not at all.
  price: Joi.number().min(0.01).max(100000).required().messages({ '*': 'The confirmed price is missing. Please reload the page and try again.' })
}).options({ allowUnknown: true })
