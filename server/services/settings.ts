import Joi from 'joi'
import type { Models } from '../../models/index.ts'
import { badRequest } from '../lib/errors.ts'
import { toGhs, toPesewas } from '../lib/money.ts'
import type { AuditService } from './audit.ts'
import type { Ctx } from './context.ts'

export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const
export type Network = (typeof NETWORKS)[number]
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
}

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
}

/** Fields everyone may read; the rest (templates, commission, whitelist switch) are for admins. */
export const PUBLIC_FIELDS = [
  'siteName', 'logoUrl', 'welcomeMessage', 'buySuccessMessage', 'agentSuccessMessage', 'platformOpen', 'whatsappNumber',
  'whatsappChannelLink', 'agentRegistrationFee', 'afaRegistrationFee', 'paymentGateway', 'visitorMessageEnabled',
  'visitorMessageTitle', 'visitorMessageContent', 'visitorMessageType', 'workingHoursEnabled', 'workingHoursText',
] as const satisfies readonly (keyof Settings)[]
export type PublicSettings = Pick<Settings, (typeof PUBLIC_FIELDS)[number]>

const MONEY_FIELDS = ['agentRegistrationFee', 'afaRegistrationFee', 'commissionFixedAmount'] as const

const text = (max: number) => Joi.string().allow('').max(max).trim()
const money = Joi.number().min(0).max(100000).precision(2)
export const settingsSchema = Joi.object<Settings>({
  siteName: Joi.string().trim().min(1).max(80).messages({ 'string.empty': 'Site name is required' }),
  logoUrl: Joi.string().allow('').max(500).uri({ allowRelative: true }),
  welcomeMessage: text(500),
  buySuccessMessage: text(300),
  agentSuccessMessage: text(300),
  platformOpen: Joi.boolean(),
  whatsappNumber: Joi.string().allow('').pattern(/^\d{0,15}$/).message('WhatsApp number must be digits only'),
  whatsappChannelLink: Joi.string().allow('').max(500).uri({ scheme: ['https', 'http'] }),
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

export type SettingsService = ReturnType<typeof createSettingsService>

export function createSettingsService({ models, audit }: { models: Models; audit: AuditService }) {
  let cache: Settings | undefined
  let cacheJson = ''
  let loadedAt = 0
  let publicCopy: { of: Settings; value: PublicSettings } | undefined
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

  // Several app instances share one database: a write made by another instance is seen within the TTL.
  async function get(): Promise<Settings> {
    if (cache && Date.now() - loadedAt < CACHE_TTL_MS) return cache
    const row = await models.Settings.findByPk(1)
    keep(fromRow((row?.get('data') as Record<string, unknown>) ?? {}))
    return cache!
  }

  return {
    get,
    async getPublic(): Promise<PublicSettings> {
      const s = await get()
      if (publicCopy?.of !== s) publicCopy = { of: s, value: pickPublic(s) }
      return publicCopy.value
    },
    getPublicSync: pickPublic,
    /** A number that moves whenever the settings may have changed (read it after `get()`). */
    version: () => version,
    /** Called whenever the settings may have changed (a save here, a reload that differs, `invalidate`). */
    onChange(fn: () => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    /** Forgets the cached copy (tests, another instance's save, or a caller that just wrote the row itself). */
    invalidate() {
      cache = undefined
      cacheJson = ''
      changed()
    },
    async update(input: unknown, ctx: Ctx): Promise<Settings> {
      const { value, error } = settingsSchema.validate(input, { abortEarly: true, convert: true })
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const before = await get()
      const next = { ...before, ...value } as Settings
      const changed = Object.keys(value).filter((k) => JSON.stringify((before as any)[k]) !== JSON.stringify((next as any)[k]))
      await models.Settings.upsert({ id: 1, data: toRow(next) }, { transaction: ctx.transaction })
      keep(next)
      await audit.record({ action: 'SETTINGS_UPDATED', resource: 'SETTINGS', resourceId: '1', severity: 'MEDIUM', details: { changed } }, ctx)
      return next
    },
  }
}
