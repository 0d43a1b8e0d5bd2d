import Joi from 'joi'
import { toGhs, toPesewas } from '../../../lib/money.ts'
import { DELIVERY_VENDOR_CHOICES, GATEWAY_CARD, GATEWAY_MOMO, type Settings } from '../../../services/settings/index.ts'

// One schema per endpoint of /api/settings, bound to the type its service takes: the route checks once.

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
/** PUT /api/settings: any subset of the fields; money arrives in GHS and is kept to whole pesewas. */
export const settingsBody = Joi.object<Partial<Settings>>({
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
