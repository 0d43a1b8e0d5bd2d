import Joi from 'joi'
import type { Sequelize, Transaction } from 'sequelize'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { normalizePhone } from '../../lib/phone.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { LimitsService } from '../limits/index.ts'
import { PURCHASES_DISABLED } from '../orders/index.ts'
import { newTransactionId, type PaymentsService, type PaymentView } from '../payments/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { post as postWalletEntry } from '../wallet/ledger.ts'
import type { ShopSale, Wanted } from './allocate.ts'
import { unitPriceFor, type Products } from './products.ts'
import { createHandoverQueries } from './queries-handover.ts'

export const MAX_CARDS_PER_PURCHASE = 10

const buySchema = Joi.object({
  productId: Joi.number().integer().min(1).required().messages({ '*': 'Choose a checker' }),
  quantity: Joi.number()
    .integer()
    .min(1)
    .max(MAX_CARDS_PER_PURCHASE)
    .default(1)
    .messages({ '*': `Quantity must be from 1 to ${MAX_CARDS_PER_PURCHASE}` }),
  payFrom: Joi.string().valid('wallet', 'momo', 'card').allow(null, ''),
  payerPhone: Joi.string().allow('', null),
  payerNetwork: Joi.string().allow('', null),
  email: Joi.string().allow('', null).max(254),
  callbackUrl: Joi.string().uri().allow(null)
}).options({ stripUnknown: true })

export type BuyInput = {
  productId?: unknown
  quantity?: unknown
  payFrom?: string | null
  payerPhone?: string | null
  payerNetwork?: string | null
  email?: string | null
  callbackUrl?: string | null
}

export function createBuying(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  payments: PaymentsService
  limits: LimitsService
  products: Products
}) {
  const { sequelize, payments, products } = deps
  const queries = createHandoverQueries(sequelize)

  /**
   * The server's price and a stock check before any money moves (the race past it is settled by a refund).
   * A shop's sale brings its own price: the shop's, whoever is signed in.
   */
  async function quote(raw: BuyInput, ctx: Ctx, sale?: ShopSale & { unitPesewas: number }) {
    const { value, error } = buySchema.validate(raw ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    if ((await deps.settings.get()).platformOpen === false) throw forbidden(PURCHASES_DISABLED)
    const product = await products.load(value.productId).catch(() => null)
    if (!product || !product.active) throw notFound('This checker is not on sale')
    const available = (await products.countsOf([product.id])).get(product.id)?.available ?? 0
    if (available < value.quantity)
      throw conflict(available ? `Only ${available} ${product.name} card${available === 1 ? '' : 's'} left` : `${product.name} is out of stock`)
    const unitPesewas = sale?.unitPesewas ?? unitPriceFor(product, ctx.user)
    const wanted: Wanted = { productId: product.id, quantity: value.quantity, unitPesewas }
    if (sale) wanted.shop = { shopId: sale.shopId, agentId: sale.agentId, agentUnitPesewas: sale.agentUnitPesewas }
    return { value, product, wanted, amountPesewas: unitPesewas * value.quantity }
  }

  /**
   * Mobile money (or a card redirect): a payment with the voucher purpose; settlement allocates the cards.
   * In a shop the buyer is the shop's customer: no agent of theirs is recorded, the shop's agent is on `vouchers.shop`.
   */
  async function buy(raw: BuyInput, ctx: Ctx, sale?: ShopSale & { unitPesewas: number }): Promise<PaymentView> {
    const { value, wanted, amountPesewas } = await quote(raw, ctx, sale)
    const agent = ctx.user?.role === 'AGENT' && !sale ? ctx.user.agent : null
    await deps.limits.take({ orderPerIp: ctx.ip, orderPerPhone: normalizePhone(String(value.payerPhone ?? '')), orderPerAccount: ctx.user?.id })
    return payments.request(
      {
        purpose: 'voucher',
        amountPesewas,
        payerPhone: value.payerPhone,
        payerNetwork: value.payerNetwork,
        email: value.email,
        method: value.payFrom === 'card' ? 'card' : value.payFrom === 'momo' ? 'momo' : undefined,
        callbackUrl: value.callbackUrl ?? null,
        agentId: agent?.id ?? null,
        userId: ctx.user?.id ?? null,
        vouchers: wanted
      },
      ctx
    )
  }

  /**
   * An agent pays from the wallet: payment row, debit and settlement (which allocates the cards) in
   * one transaction, like a wallet-paid data order. Out of stock by then: the refund goes back to the wallet.
   */
  async function buyFromWallet(
    raw: BuyInput,
    ctx: Ctx,
    opts: { andThen?: (transactionId: string, t: Transaction) => Promise<void> } = {}
  ): Promise<{ transactionId: string; amount: number }> {
    const agent = requireActiveAgent(ctx, 'Checker purchases')
    const { product, wanted, amountPesewas } = await quote(raw, ctx)
    // Read before the transaction: settlement inside it must not need a second connection.
    const settings = await deps.settings.getFresh()
    const tid = newTransactionId()
    await sequelize.transaction(async (t) => {
      await queries.insertWalletPayment(
        {
          tid,
          amount: amountPesewas,
          email: ctx.user?.email ?? null,
          agentId: agent.id,
          userId: ctx.user?.id ?? null,
          details: JSON.stringify({ vouchers: wanted }),
          simulated: payments.isSimulator
        },
        t
      )
      await postWalletEntry(
        sequelize,
        {
          agentId: agent.id,
          type: 'ORDER',
          amountPesewas: -amountPesewas,
          reason: `${product.name} x${wanted.quantity}`,
          actorUserId: ctx.user?.id ?? null,
          paymentTransactionId: tid
        },
        t
      )
      const out = await payments.settle(
        tid,
        { status: 'SUCCESS', message: 'Paid from wallet', amountPesewas, currency: 'GHS' },
        { ...ctx, transaction: t },
        { settings }
      )
      if (!out.settled) throw new Error('wallet payment did not settle')
      await opts.andThen?.(tid, t)
    })
    ctx.browser?.remember(tid)
    return { transactionId: tid, amount: toGhs(amountPesewas) }
  }

  return { quote, buy, buyFromWallet }
}
