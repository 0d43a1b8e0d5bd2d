import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import type { Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'
import type { ConnectionStates } from '../../lib/connection-states.ts'
import { badRequest } from '../../lib/errors.ts'
import { listenForever } from '../../lib/pg-listener.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

export const GATEWAY_CARD = 'paystack'
export const GATEWAY_MOMO = 'ussd'

/** Settings as the API speaks them (fees in GHS). */
export interface Settings {
  siteName: string
  logoUrl: string
  welcomeMessage: string
  buySuccessMessage: string
  agentSuccessMessage: string
  platformOpen: boolean
  whatsappNumber: string
  whatsappChannelLink: string
  agentRegistrationFee: number
  afaRegistrationFee: number
  paymentGateway: string
  smsOrderCreatedUser: string
  smsOrderCreatedAgent: string
  visitorMessageEnabled: boolean
  visitorMessageTitle: string
  visitorMessageContent: string
  visitorMessageType: 'INFO' | 'SUCCESS' | 'WARNING' | 'ERROR'
  workingHoursEnabled: boolean
  workingHoursText: string
  commissionEnabled: boolean
  commissionType: 'PERCENTAGE' | 'FIXED'
  commissionPercentage: number
  commissionFixedAmount: number
  ussdWhitelistEnabled: boolean
  /** 'automatic' sends each paid order to its vendor; 'manual' leaves it to the CSV export as before. */
  deliveryMode: 'automatic' | 'manual'
  /** Vendor per network: 'auto' = the real vendor when its keys are configured, else the simulator. */
  deliveryVendorMtn: DeliveryVendorChoice
  deliveryVendorTelecel: DeliveryVendorChoice
  deliveryVendorAirteltigo: DeliveryVendorChoice
  /** Vendor calls per order before it is FAILED (each retry waits twice as long as the one before). */
  deliveryRetryLimit: number
  /** GHS: the overview warns when a vendor's balance is below this. */
  deliveryLowBalanceThreshold: number
  smsSenderId: string
  smsDelivered: string
  smsDeliveryFailed: string
  smsAgentApproved: string
  /** The cards of a result-checker purchase: {product}, {cards} (serial and PIN each), {howToUse}. */
  smsVoucherSold: string
  /** Refund the payer automatically when a delivery fails for good. */
  refundOnDeliveryFailure: boolean
  /** Agent wallet top-up limits (GHS). */
  walletTopupMin: number
  walletTopupMax: number
  /** Agent shops: the most an agent may add to its agent price, in percent of it or in GHS. */
  shopMaxMarkupType: 'PERCENT' | 'FIXED'
  shopMaxMarkupValue: number
  /** Payouts of shop earnings (GHS): the smallest withdrawal, the fee held with it, and the amount above which an admin approves first. */
  payoutMinimum: number
  payoutFee: number
  payoutApprovalAbove: number
  /** Bulk orders (ADR 0039): the most lines one batch may hold. */
  bulkMaxLines: number
  /** Customer USSD: callers who are not agents get the customer menu on the same code. */
  ussdCustomerEnabled: boolean
  /** Customer USSD texts: the first line of the home screen, the help screen and the END after confirming. */
  ussdCustomerWelcome: string
  ussdCustomerHelp: string
  ussdCustomerPlaced: string
  /** WhatsApp ordering: the bot answers customers when on (credentials come from env, docs/whatsapp.md). */
  whatsappBotEnabled: boolean
  whatsappGreeting: string
  whatsappHandoff: string
  /** A chat bound to an agent's shop: its greeting ({shopName}, {siteName}). */
  whatsappShopGreeting: string
  /** A named shop that does not take WhatsApp orders now (closed, agent not active, switched off): the chat falls back to the main shop ({siteName}). */
  whatsappShopUnavailable: string
  /** What a shop's wa.me link types for the customer; it must name the shop ({slug}). */
  whatsappShopPrefill: string
  /** The payment link message ({link}, {price}, {ref}, {minutes}). */
  whatsappPayLink: string
}

export const DELIVERY_VENDOR_CHOICES = ['auto', 'simulator', 'skytech'] as const
export type DeliveryVendorChoice = (typeof DELIVERY_VENDOR_CHOICES)[number]

export const DEFAULT_SETTINGS: Settings = {
  siteName: 'Data Hub',
  logoUrl: '',
  welcomeMessage: 'Buy affordable data bundles for MTN, Telecel and AirtelTigo in seconds.',
  buySuccessMessage: 'Order placed successfully! Your data will be delivered shortly.',
  agentSuccessMessage: 'Order placed successfully! Your data will be delivered shortly.',
  platformOpen: true,
  whatsappNumber: '',
  whatsappChannelLink: '',
  agentRegistrationFee: 0,
  afaRegistrationFee: 0,
  paymentGateway: GATEWAY_MOMO,
  smsOrderCreatedUser: 'Your order for {dataSize} {network} data to {recipientNumber} has been received.',
  smsOrderCreatedAgent: 'Agent order: {dataSize} {network} data to {recipientNumber} has been received.',
  visitorMessageEnabled: false,
  visitorMessageTitle: '',
  visitorMessageContent: '',
  visitorMessageType: 'INFO',
  workingHoursEnabled: false,
  workingHoursText: '',
  commissionEnabled: true,
  commissionType: 'PERCENTAGE',
  commissionPercentage: 10,
  commissionFixedAmount: 0,
  ussdWhitelistEnabled: false,
  deliveryMode: 'automatic',
  deliveryVendorMtn: 'auto',
  deliveryVendorTelecel: 'auto',
  deliveryVendorAirteltigo: 'auto',
  deliveryRetryLimit: 5,
  deliveryLowBalanceThreshold: 50,
  smsSenderId: 'DataHub',
  smsDelivered: 'Your {dataSize} {network} data to {recipientNumber} has been delivered.',
  smsDeliveryFailed: 'We could not deliver your {dataSize} {network} data to {recipientNumber} yet. We are on it.',
  smsAgentApproved: 'Your Data Hub agent account has been approved. You can now place orders.',
  smsVoucherSold: 'Your {product}: {cards}. {howToUse}',
  refundOnDeliveryFailure: false,
  walletTopupMin: 1,
  walletTopupMax: 5000,
  shopMaxMarkupType: 'PERCENT',
  shopMaxMarkupValue: 20,
  payoutMinimum: 10,
  payoutFee: 0,
  payoutApprovalAbove: 500,
  bulkMaxLines: 1000,
  ussdCustomerEnabled: false,
  ussdCustomerWelcome: 'Buy data bundles',
  ussdCustomerHelp: 'Help: pay by mobile money when the prompt comes; data arrives in minutes with an SMS. Questions: call or WhatsApp us.',
  ussdCustomerPlaced: 'A payment prompt is coming to your phone. Approve it to pay {price} for {dataSize} {network} to {recipientNumber}.',
  whatsappBotEnabled: true,
  whatsappGreeting: 'Hello! Welcome to {siteName}. Buy data bundles right here in the chat.',
  whatsappHandoff: 'A person from our team will answer you here soon.',
  whatsappShopGreeting: 'Hello! Welcome to {shopName}. Buy data bundles right here in the chat.',
  whatsappShopUnavailable: 'That shop is not taking orders on WhatsApp at the moment. You can buy from {siteName} instead.',
  whatsappShopPrefill: 'Hi! I want to buy data from shop {slug}',
  whatsappPayLink: 'Pay {price} for your order (ref {ref}) here: {link}\nThe link works for {minutes} minutes. We will message you when the data is delivered.'
}

/** Fields everyone may read; the rest (templates, commission, whitelist switch) are for admins. */
export const PUBLIC_FIELDS = [
  'siteName',
  'logoUrl',
  'welcomeMessage',
  'buySuccessMessage',
  'agentSuccessMessage',
  'platformOpen',
  'whatsappNumber',
  'whatsappChannelLink',
  'agentRegistrationFee',
  'afaRegistrationFee',
  'paymentGateway',
  'visitorMessageEnabled',
  'visitorMessageTitle',
  'visitorMessageContent',
  'visitorMessageType',
  'workingHoursEnabled',
  'workingHoursText'
] as const satisfies readonly (keyof Settings)[]
export type PublicSettings = Pick<Settings, (typeof PUBLIC_FIELDS)[number]>

const MONEY_FIELDS = [
  'agentRegistrationFee',
  'afaRegistrationFee',
  'commissionFixedAmount',
  'deliveryLowBalanceThreshold',
  'walletTopupMin',
  'walletTopupMax',
  // Payouts
  'payoutMinimum',
  'payoutFee',
  'payoutApprovalAbove'
] as const

const text = (max: number) => Joi.string().allow('').max(max).trim()
// 0 means free; a positive amount that rounds to 0 pesewas would silently make it free, so it is refused.
const money = Joi.number()
  .min(0)
  .max(100000)
  .custom((v: number, h) => {
    const pesewas = toPesewas(v)
    return v > 0 && pesewas === 0 ? h.error('money.zero') : toGhs(pesewas)
  })
  .messages({ 'money.zero': '{#label} must be 0 or at least 0.01 GHS' })
export const settingsSchema = Joi.object<Settings>({
  siteName: Joi.string().trim().min(1).max(80).messages({ 'string.empty': 'Site name is required' }),
  logoUrl: Joi.string().allow('').max(500).uri({ allowRelative: true }),
  welcomeMessage: text(500),
  buySuccessMessage: text(300),
  agentSuccessMessage: text(300),
  platformOpen: Joi.boolean(),
  whatsappNumber: Joi.string()
    .allow('')
    .pattern(/^\d{0,15}$/)
    .message('WhatsApp number must be digits only'),
  whatsappChannelLink: Joi.string()
    .allow('')
    .max(500)
    .uri({ scheme: ['https', 'http'] }),
  agentRegistrationFee: money,
  afaRegistrationFee: money,
  paymentGateway: Joi.string().valid(GATEWAY_CARD, GATEWAY_MOMO),
  smsOrderCreatedUser: text(320),
  smsOrderCreatedAgent: text(320),
  visitorMessageEnabled: Joi.boolean(),
  visitorMessageTitle: text(120),
  visitorMessageContent: text(2000),
  visitorMessageType: Joi.string().valid('INFO', 'SUCCESS', 'WARNING', 'ERROR'),
  workingHoursEnabled: Joi.boolean(),
  workingHoursText: text(300),
  commissionEnabled: Joi.boolean(),
  commissionType: Joi.string().valid('PERCENTAGE', 'FIXED'),
  commissionPercentage: Joi.number().min(0).max(100),
  commissionFixedAmount: money,
  ussdWhitelistEnabled: Joi.boolean(),
  deliveryMode: Joi.string().valid('automatic', 'manual'),
  deliveryVendorMtn: Joi.string().valid(...DELIVERY_VENDOR_CHOICES),
  deliveryVendorTelecel: Joi.string().valid(...DELIVERY_VENDOR_CHOICES),
  deliveryVendorAirteltigo: Joi.string().valid(...DELIVERY_VENDOR_CHOICES),
  deliveryRetryLimit: Joi.number().integer().min(1).max(20).messages({ '*': 'Retry limit must be a whole number from 1 to 20' }),
  bulkMaxLines: Joi.number().integer().min(1).max(5000).messages({ '*': 'Bulk order lines must be a whole number from 1 to 5000' }),
  deliveryLowBalanceThreshold: money,
  // Sender IDs are at most 11 letters or digits (telco rule, Arkesel and the others enforce it).
  smsSenderId: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9 ]{1,11}$/)
    .messages({ '*': 'Sender ID must be 1 to 11 letters or digits' }),
  smsDelivered: text(320),
  smsDeliveryFailed: text(320),
  smsAgentApproved: text(320),
  smsVoucherSold: text(320),
  refundOnDeliveryFailure: Joi.boolean(),
  walletTopupMin: Joi.number().min(0.01).max(100000).precision(2),
  walletTopupMax: Joi.number().min(0.01).max(100000).precision(2),
  shopMaxMarkupType: Joi.string().valid('PERCENT', 'FIXED').messages({ '*': 'Maximum markup type must be PERCENT or FIXED' }),
  shopMaxMarkupValue: Joi.number().min(0).max(100000).precision(2).messages({ '*': 'Maximum markup must be a number of 0 or more (at most 2 decimals)' }),
  // Payouts: 0 for the approval amount means every payout waits for an admin.
  payoutMinimum: Joi.number().min(1).max(100000).precision(2).messages({ '*': 'Minimum payout must be from GH₵1.00 to GH₵100000.00' }),
  payoutFee: money,
  payoutApprovalAbove: money,
  ussdCustomerEnabled: Joi.boolean(),
  // Screens hold 182 characters with the choices: these lines stay short.
  ussdCustomerWelcome: text(40),
  ussdCustomerHelp: text(170),
  ussdCustomerPlaced: text(170),
  whatsappBotEnabled: Joi.boolean(),
  whatsappGreeting: text(500),
  whatsappHandoff: text(500),
  whatsappShopGreeting: text(500),
  whatsappShopUnavailable: text(500),
  // The bot finds the shop by "shop <slug>" in the customer's first message.
  whatsappShopPrefill: Joi.string()
    .trim()
    .max(200)
    .pattern(/\bshop \{slug\}/)
    .messages({ '*': 'The WhatsApp link text must contain "shop \\{slug}" (at most 200 characters)' }),
  whatsappPayLink: Joi.string()
    .trim()
    .max(500)
    .pattern(/\{link\}/)
    .messages({ '*': 'The payment link message must contain \\{link} (at most 500 characters)' })
})
  // The admin page sends the whole object it loaded; unknown keys (id, timestamps) are dropped.
  .options({ stripUnknown: true })

function fromRow(data: Record<string, unknown>): Settings {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if ((MONEY_FIELDS as readonly string[]).includes(key)) {
      const p = data[`${key}Pesewas`]
      if (typeof p === 'number') merged[key] = toGhs(p)
    } else if (data[key] !== undefined && data[key] !== null) merged[key] = data[key]
  }
  return merged as unknown as Settings
}

function toRow(s: Settings): Record<string, unknown> {
  const row: Record<string, unknown> = { ...s }
  for (const key of MONEY_FIELDS) {
    row[`${key}Pesewas`] = toPesewas(s[key])
    delete row[key]
  }
  return row
}

export function pickPublic(s: Settings): PublicSettings {
  return Object.fromEntries(PUBLIC_FIELDS.map((k) => [k, s[k]])) as PublicSettings
}

const CACHE_TTL_MS = 5000
const READ = 'SELECT xmin::text AS version, data FROM settings WHERE id = 1'
/** A scalar subquery giving the settings row's version, for `freshAt` (ADR 0024). */
export const SETTINGS_VERSION_SQL = '(SELECT xmin::text FROM settings WHERE id = 1)'
/** Every instance LISTENs here; a save NOTIFYs at commit, and each instance drops its copy. */
export const SETTINGS_CHANNEL = 'datahub_settings'

export type SettingsService = ReturnType<typeof createSettingsService>

export function createSettingsService({
  models,
  audit,
  sequelize,
  connections
}: {
  models: Models
  audit: AuditService
  sequelize?: Sequelize
  connections?: ConnectionStates
}) {
  let cache: Settings | undefined
  let cacheJson = ''
  let loadedAt = 0
  let generation = 0
  let publicCopy: { of: Settings; value: PublicSettings } | undefined
  // The row's version (its xmin: any save writes a new one) and the settings parsed from it: a
  // settlement learns the version from its own UPDATE and skips the read when it is this one.
  let parsed: { version: string; settings: Settings } | undefined
  const run = preparedFor(models.Settings.sequelize!)
  // Moves whenever the settings may have changed; caches built from settings (the page cache) key on it.
  let version = 1
  const listeners = new Set<() => void>()
  const changed = () => {
    version++
    for (const fn of listeners) fn()
  }
  const keep = (s: Settings) => {
    const json = JSON.stringify(s)
    if (json !== cacheJson) changed()
    cache = s
    cacheJson = json
    loadedAt = Date.now()
  }

  // Callers inside a transaction pass it: a read on a second connection while every pooled
  // connection is held by such a transaction (a burst of settlements) would wait forever.
  async function load(opts: { transaction?: Transaction } = {}): Promise<Settings> {
    const gen = generation
    const [row] = await run<{ version: string; data: Record<string, unknown> | null }>(READ, [], opts.transaction)
    const fresh = row && parsed?.version === row.version ? parsed.settings : fromRow(row?.data ?? {})
    if (row) parsed = { version: row.version, settings: fresh }
    // A NOTIFY that arrived while this read was running may describe a newer row: do not keep this one.
    if (gen === generation) keep(fresh)
    return fresh
  }

  // Several app instances share one database: a save on one reaches the others by NOTIFY at once;
  // the TTL is the fallback should the listening connection be down.
  async function get(opts: { transaction?: Transaction } = {}): Promise<Settings> {
    if (cache && Date.now() - loadedAt < CACHE_TTL_MS) return cache
    return load(opts)
  }

  function invalidate() {
    generation++
    cache = undefined
    cacheJson = ''
    changed()
  }

  /**
   * Listens for saves made by any instance; returns a stop function. The connection comes back by
   * itself after any outage (with backoff, as long as it takes); while it is gone the 5 s TTL holds.
   */
  async function listen(): Promise<() => Promise<void>> {
    if (!sequelize || !connections) return async () => {}
    const c = sequelize.config
    return listenForever({
      name: 'datahub-settings-listener',
      config: { host: c.host, port: Number(c.port), user: c.username, password: c.password ?? undefined, database: c.database },
      channels: [SETTINGS_CHANNEL],
      onNotify: () => invalidate(),
      // Anything saved while we were not listening is read afresh.
      onGap: () => invalidate(),
      states: connections
    })
  }

  return {
    get,
    /** For money and access decisions (platform open, fees, gateway): always the row as saved now. */
    getFresh: (opts: { transaction?: Transaction } = {}) => load(opts),
    /**
     * Like getFresh, for a caller that read the row's version (`SETTINGS_VERSION_SQL`) in a statement
     * of its own transaction: no read when the version is the one already parsed.
     */
    freshAt: (version: string | null | undefined, opts: { transaction?: Transaction } = {}) =>
      version && parsed?.version === version ? Promise.resolve(parsed.settings) : load(opts),
    listen,
    async getPublic(): Promise<PublicSettings> {
      const s = await get()
      if (publicCopy?.of !== s) publicCopy = { of: s, value: pickPublic(s) }
      return publicCopy.value
    },
    getPublicSync: pickPublic,
    /** A number that moves whenever the settings may have changed (read it after `get()`). */
    version: () => version,
    /** Called whenever the settings may have changed (a save here or elsewhere, a reload that differs, `invalidate`). */
    onChange(fn: () => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    /** Forgets the cached copy (tests, another instance's save, or a caller that just wrote the row itself). */
    invalidate,
    async update(input: unknown, ctx: Ctx): Promise<Settings> {
      const { value, error } = settingsSchema.validate(input, { abortEarly: true, convert: true })
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const before = await load()
      const next = { ...before, ...value } as Settings
      if (next.walletTopupMin > next.walletTopupMax) throw badRequest('Minimum wallet top-up cannot be more than the maximum')
      if (next.shopMaxMarkupType === 'PERCENT' && next.shopMaxMarkupValue > 1000) throw badRequest('Maximum markup in percent must be at most 1000')
      const changed = Object.keys(value).filter((k) => JSON.stringify((before as any)[k]) !== JSON.stringify((next as any)[k]))
      await models.Settings.upsert({ id: 1, data: toRow(next) }, { transaction: ctx.transaction })
      // Delivered to every listening instance when this transaction commits (at once without one).
      if (sequelize) await sequelize.query(`SELECT pg_notify('${SETTINGS_CHANNEL}', '1')`, { transaction: ctx.transaction })
      invalidate()
      await audit.record({ action: 'SETTINGS_UPDATED', resource: 'SETTINGS', resourceId: '1', severity: 'MEDIUM', details: { changed } }, ctx)
      return next
    }
  }
}
