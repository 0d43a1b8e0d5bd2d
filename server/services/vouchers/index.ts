import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import type { AuditService } from '../audit/index.ts'
import type { LimitsService } from '../limits/index.ts'
import type { PaymentsService } from '../payments/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { createVoucherAdmin } from './admin.ts'
import { createAllocation } from './allocate.ts'
import { createBuying } from './buy.ts'
import { createHandover } from './handover.ts'
import { createProducts } from './products.ts'
import { createVoucherQueries } from './queries.ts'
import { createStock } from './stock.ts'

export type { PurchaseView } from './handover.ts'
export type { AdminProductView, PublicProductView } from './products.ts'
export type { ProductRow } from './queries.ts'
export type { Wanted } from './allocate.ts'
export { agentPriceOf, publicView, shopCeilingOf } from './products.ts'

export type VouchersService = ReturnType<typeof createVouchersService>

/**
 * Result-checker vouchers (docs/vouchers.md, ADR 0040): products, stock with sealed PINs, buying
 * through the payments flow or the agent wallet, allocation in the settlement's transaction, and
 * handing the cards over only to their buyer.
 */
export function createVouchersService(deps: {
  sequelize: Sequelize
  env: Env
  audit: AuditService
  settings: SettingsService
  payments: PaymentsService
  sms: SmsService
  limits: LimitsService
}) {
  const { sequelize, audit, payments } = deps
  const box = createSecretBox(deps.env)
  const products = createProducts({ sequelize, audit })
  const stock = createStock({ sequelize, audit, box, products })
  const allocation = createAllocation({ sequelize, box, sms: deps.sms, refunds: payments.refunds, attention: payments.attention })
  const buying = createBuying({ ...deps, products })
  const handover = createHandover({ ...deps, box })
  const admin = createVoucherAdmin({ sequelize, audit, box })
  const listeners = new Set<() => void>()
  const changed = () => {
    for (const fn of listeners) fn()
  }
  // This instance drops its /checkers page before the writer is answered; the others hear the trigger's NOTIFY (ADR 0047).
  const thenChanged =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await fn(...args)
      changed()
      return result
    }

  return {
    products: { ...products, create: thenChanged(products.create), update: thenChanged(products.update) },
    /** Called when what a visitor's /checkers page shows may have changed (a product, a product running out or coming back). */
    onChange(fn: () => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    changed,
    upload: thenChanged(stock.upload),
    /** Settlement's effect for a paid voucher purchase (wired as a payment hook). */
    onPaid: allocation.onPaid,
    quote: buying.quote,
    buy: buying.buy,
    buyFromWallet: buying.buyFromWallet,
    purchase: handover.purchase,
    cardsOf: handover.cardsOf,
    mine: handover.mine,
    lookup: handover.lookup,
    resend: handover.resend,
    sold: admin.sold,
    voidCard: thenChanged(admin.voidCard),
    stock: admin.stock
  }
}

/**
 * Start-up check: in production, sealed cards need VOUCHER_ENCRYPTION_KEY (without it they could
 * never be handed over). Null when all is well.
 */
export async function voucherKeyRefusal(sequelize: Sequelize, env: Pick<Env, 'NODE_ENV' | 'VOUCHER_ENCRYPTION_KEY'>): Promise<string | null> {
  if (env.NODE_ENV !== 'production' || env.VOUCHER_ENCRYPTION_KEY) return null
  return (await createVoucherQueries(sequelize).anyCard())
    ? 'VOUCHER_ENCRYPTION_KEY is required in production once result-checker cards are in stock (32 bytes, hex or base64)'
    : null
}
