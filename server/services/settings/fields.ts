import { toGhs, toPesewas } from '../../lib/money.ts'

// The settings' fields: their types, defaults, which ones the public may read, and how the row stores
// them (money as pesewas under `<field>Pesewas`).

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

export const MONEY_FIELDS = [
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

/** The stored row's data as the API speaks it: defaults for what the row lacks, money in GHS. */
export function fromRow(data: Record<string, unknown>): Settings {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if ((MONEY_FIELDS as readonly string[]).includes(key)) {
      const p = data[`${key}Pesewas`]
      if (typeof p === 'number') merged[key] = toGhs(p)
    } else if (data[key] !== undefined && data[key] !== null) merged[key] = data[key]
  }
  return merged as unknown as Settings
}

/** The settings as the row stores them: money in integer pesewas. */
export function toRow(s: Settings): Record<string, unknown> {
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
