import Joi from 'joi'
import { QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { normalizePhone } from '../../lib/phone.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'

export const MAX_BULK = 10_000
export const INVALID_FORMAT = 'Invalid phone number format. Use 0XXXXXXXXX or 233XXXXXXXXX'

export interface WhitelistEntry {
  id: number
  phoneNumber: string
  isActive: boolean
  addedAt: string
}

/**
 * Local 0XXXXXXXXX or international 233XXXXXXXXX (spaces, dashes and a leading + tolerated);
 * returns the stored form 0XXXXXXXXX, or null when it is not a Ghana mobile number.
 */
export function parseWhitelistPhone(raw: unknown): string | null {
  const s = String(raw ?? '')
    .trim()
    .replace(/[\s\-().]/g, '')
    .replace(/^\+/, '')
  if (!/^(0\d{9}|233\d{9})$/.test(s)) return null
  return normalizePhone(s)
}

const present = (r: Record<string, any>): WhitelistEntry => ({
  id: r.id,
  phoneNumber: r.phoneNumber ?? r.phone_number,
  isActive: (r.isActive ?? r.is_active) !== false,
  addedAt: new Date(r.addedAt ?? r.added_at).toISOString()
})

const addSchema = Joi.object({ phoneNumber: Joi.alternatives(Joi.string(), Joi.number()).required() }).options({ stripUnknown: true })
const statusSchema = Joi.object({ isActive: Joi.boolean().required() })
  .options({ stripUnknown: true })
  .messages({ 'any.required': 'isActive is required', 'boolean.base': 'isActive must be true or false' })
const bulkSchema = Joi.object({
  phoneNumbers: Joi.array()
    .items(Joi.alternatives(Joi.string().allow(''), Joi.number()))
    .max(MAX_BULK)
    .required()
})
  .options({ stripUnknown: true })
  .messages({
    'any.required': 'Please enter phone numbers',
    'array.max': `At most ${MAX_BULK} numbers per import`,
    'array.base': 'phoneNumbers must be a list'
  })

const idOf = (raw: unknown) => {
  const id = Number(raw)
  if (!Number.isInteger(id) || id < 1) throw badRequest('Invalid entry id')
  return id
}

export function createWhitelistService({
  sequelize,
  models,
  audit,
  settings
}: {
  sequelize: Sequelize
  models: Models
  audit: AuditService
  settings: SettingsService
}) {
  const record = (action: string, details: Record<string, unknown>, ctx: Ctx, resourceId?: string) =>
    audit.record({ action, resource: 'SYSTEM', resourceId: resourceId ?? 'ussd-whitelist', severity: 'MEDIUM', details }, ctx)

  return {
    /** The whole list (the page paginates on the client); it holds a few hundred numbers at most. */
    async list(): Promise<{ entries: WhitelistEntry[]; enabled: boolean }> {
      const rows = await models.UssdWhitelist.findAll({
        order: [
          ['addedAt', 'DESC'],
          ['id', 'DESC']
        ]
      })
      return { entries: rows.map((r) => present(r.get({ plain: true }))), enabled: (await settings.get()).ussdWhitelistEnabled }
    },

    /** For the USSD channel: may this caller use the menu? Everyone may while the whitelist is switched off. */
    async isAllowed(phone: string): Promise<boolean> {
      if (!(await settings.get()).ussdWhitelistEnabled) return true
      const local = normalizePhone(phone)
      if (!local) return false
      return (await models.UssdWhitelist.count({ where: { phoneNumber: local, isActive: true } })) > 0
    },

    async add(input: unknown, ctx: Ctx): Promise<WhitelistEntry> {
      const { value, error } = addSchema.validate(input ?? {})
      if (error || !String(value.phoneNumber).trim()) throw badRequest('Please enter a phone number')
      const phone = parseWhitelistPhone(value.phoneNumber)
      if (!phone) throw badRequest(INVALID_FORMAT)
      try {
        const row = await models.UssdWhitelist.create({ phoneNumber: phone, isActive: true })
        const entry = present(row.get({ plain: true }))
        await record('WHITELIST_ADDED', { phoneNumber: phone }, ctx, String(entry.id))
        return entry
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict('Phone number is already whitelisted')
        throw err
      }
    },

    async setActive(rawId: unknown, input: unknown, ctx: Ctx): Promise<WhitelistEntry> {
      const id = idOf(rawId)
      const { value, error } = statusSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const row = await models.UssdWhitelist.findByPk(id)
      if (!row) throw notFound('Whitelist entry not found')
      await row.update({ isActive: value.isActive })
      const entry = present(row.get({ plain: true }))
      await record('WHITELIST_UPDATED', { phoneNumber: entry.phoneNumber, isActive: entry.isActive }, ctx, String(id))
      return entry
    },

    async remove(rawId: unknown, ctx: Ctx): Promise<void> {
      const id = idOf(rawId)
      const row = await models.UssdWhitelist.findByPk(id)
      if (!row) throw notFound('Whitelist entry not found')
      const phone = row.get('phoneNumber')
      await row.destroy()
      await record('WHITELIST_REMOVED', { phoneNumber: phone }, ctx, String(id))
    },

    /**
     * Adds many numbers at once. Blank items are ignored; a number given twice (in either spelling) or
     * already listed counts as skipped; an invalid one goes to errors. One INSERT for the lot.
     */
    async bulkImport(
      input: unknown,
      ctx: Ctx
    ): Promise<{ results: { added: number; skipped: number; errors: Array<{ phoneNumber: string; error: string }> } }> {
      const { value, error } = bulkSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const errors: Array<{ phoneNumber: string; error: string }> = []
      const unique = new Set<string>()
      let skipped = 0
      for (const raw of value.phoneNumbers as unknown[]) {
        const text = String(raw ?? '').trim()
        if (!text) continue
        const phone = parseWhitelistPhone(text)
        if (!phone) errors.push({ phoneNumber: text.slice(0, 40), error: INVALID_FORMAT })
        else if (unique.has(phone)) skipped++
        else unique.add(phone)
      }
      if (!unique.size && !errors.length) throw badRequest('No valid phone numbers found')
      let added = 0
      if (unique.size) {
        const rows = await sequelize.query(
          `INSERT INTO ussd_whitelist (phone_number) SELECT unnest($1::varchar[]) ON CONFLICT (phone_number) DO NOTHING RETURNING id`,
          { bind: [[...unique]], type: QueryTypes.SELECT, transaction: ctx.transaction }
        )
        added = rows.length
        skipped += unique.size - added
      }
      await record('WHITELIST_BULK_IMPORT', { added, skipped, errors: errors.length }, ctx)
      return { results: { added, skipped, errors } }
    }
  }
}
