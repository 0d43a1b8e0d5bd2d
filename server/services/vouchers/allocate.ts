import type { Sequelize, Transaction } from 'sequelize'
import { ghsText } from '../../lib/money.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import type { Ctx } from '../context.ts'
import type { Attention } from '../payments/attention.ts'
import type { PaymentRow } from '../payments/provider.ts'
import type { Refunds } from '../payments/refund.ts'
import type { Settings } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { createVoucherQueries, type ProductRow } from './queries.ts'

/** What a paid purchase asked for, kept on its payment row when it was started. */
export interface Wanted {
  productId: number
  quantity: number
  unitPesewas: number
  /** Sold in an agent's shop (its price is `unitPesewas`): who earns the margin on the cards allocated. */
  shop?: ShopSale | null
}

/** A shop's sale, fixed when the buyer confirmed: the shop, its agent and the agent's own price per card. */
export interface ShopSale {
  shopId: number
  agentId: number
  agentUnitPesewas: number
}

export interface Card {
  serial: string
  pin: string
  expiresOn: string | null
}

/** The buyer's text: {product}, {cards} (serial and PIN of each), {howToUse}. */
export function cardsSms(template: string, product: Pick<ProductRow, 'name' | 'howToUse' | 'checkingUrl'>, cards: Card[]): string {
  const list = cards.map((c) => `S/N ${c.serial} PIN ${c.pin}`).join('; ')
  const how = [product.howToUse, product.checkingUrl].filter(Boolean).join(' ')
  return template.replace(/\{(product|cards|howToUse)\}/g, (_m, k: string) => (k === 'product' ? product.name : k === 'cards' ? list : how)).trim()
}

export function createAllocation(deps: { sequelize: Sequelize; box: SecretBox; sms: SmsService; refunds: Refunds; attention: Attention }) {
  const { sequelize, box, sms } = deps
  const queries = createVoucherQueries(sequelize)

  /**
   * Tells the admins once when a product's available stock is at or below its threshold. The product
   * row is locked after the cards were taken, so the last of several concurrent allocations counts
   * with every earlier one committed; the conditional UPDATE lets exactly one of them alert.
   */
  async function alertIfLow(product: ProductRow, t: Transaction): Promise<boolean> {
    if (product.lowStockAlertedAt) return false
    await queries.lockProduct(product.id, t)
    const available = await queries.availableCount(product.id, t)
    if (available > product.lowStockThreshold) return false
    if (!(await queries.markLowStockAlerted(product.id, t))) return false
    const text = `${product.name}: ${available} card${available === 1 ? '' : 's'} left in stock (threshold ${product.lowStockThreshold}). Upload more at Admin > Checkers.`
    const admins = await queries.admins(t)
    if (admins.length)
      await queries.tellUsers(
        admins.map((a) => a.id),
        `Low stock: ${product.name}`.slice(0, 200),
        text,
        t
      )
    for (const a of admins) if (a.phone) await sms.send(a.phone, text, { transaction: t })
    return true
  }

  /**
   * Settlement's voucher effect, inside its transaction: takes up to the wanted number of cards with
   * FOR UPDATE SKIP LOCKED, so concurrent settlements never wait on or share a card. What the stock
   * cannot supply is refunded here (part) or by settlement (all: `honoured: false`), and listed for
   * the admin. The buyer's text carries the cards sealed in the outbox.
   */
  async function onPaid(
    p: PaymentRow,
    ctx: Ctx & { transaction: Transaction },
    settings: Settings
  ): Promise<{ honoured: boolean; details: Record<string, unknown> }> {
    const t = ctx.transaction
    const want = p.details?.vouchers as Wanted | undefined
    if (!want) return { honoured: false, details: { error: 'No product on this payment' } }
    const product = await queries.product(want.productId, t)
    const taken = await queries.takeCards(want.productId, want.quantity, p.transaction_id, t)
    const short = want.quantity - taken.length
    const details: Record<string, unknown> = { productId: want.productId, quantity: want.quantity, allocated: taken.length, cardIds: taken.map((c) => c.id) }
    if (short > 0) {
      const amount = short * want.unitPesewas
      details.shortfall = short
      if (taken.length)
        await deps.refunds.issueInTx(
          t,
          p,
          {
            kind: 'shortfall',
            amountPesewas: amount,
            reason: `Out of stock: ${short} of ${want.quantity} card${want.quantity === 1 ? '' : 's'} could not be supplied`
          },
          ctx
        )
      await deps.attention.note(
        {
          kind: 'out_of_stock',
          key: p.transaction_id,
          transactionId: p.transaction_id,
          summary: `${product?.name ?? 'Checker'}: ${short} of ${want.quantity} paid card${want.quantity === 1 ? '' : 's'} out of stock`,
          actionTaken: `${ghsText(amount)} is being refunded automatically`,
          details: { productId: want.productId, short }
        },
        t
      )
    }
    if (product && taken.length) {
      const cards = taken.map((c) => ({ serial: c.serial, pin: box.open(c.pinSealed), expiresOn: c.expiresOn }))
      const to = p.payer_phone ?? (p.agent_id ? await queries.agentPhone(p.agent_id, t) : null)
      if (to && settings.smsVoucherSold) details.smsId = await sms.send(to, cardsSms(settings.smsVoucherSold, product, cards), { transaction: t, sealed: true })
    }
    if (product) details.lowStockAlert = await alertIfLow(product, t)
    return { honoured: taken.length > 0, details }
  }

  return { onPaid }
}
