import type { Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { normalizePhone } from '../../lib/phone.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'
import { createWhitelistQueries, type WhitelistRow } from './queries.ts'

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

const present = (r: WhitelistRow): WhitelistEntry => ({
  id: r.id,
  phoneNumber: r.phoneNumber,
  isActive: r.isActive !== false,
  addedAt: new Date(r.addedAt).toISOString()
})

/**
 * The USSD whitelist: who may dial the menu while it is switched on. Inputs arrive checked by their
 * endpoint's schema (server/http/routes/whitelist/schema.ts).
 */
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
  const queries = createWhitelistQueries(sequelize, models)
  const record = (action: string, details: Record<string, unknown>, ctx: Ctx, resourceId?: string) =>
    audit.record({ action, resource: 'SYSTEM', resourceId: resourceId ?? 'ussd-whitelist', severity: 'MEDIUM', details }, ctx)

  return {
    /** The whole list (the page paginates on the client); it holds a few hundred numbers at most. */
    async list(): Promise<{ entries: WhitelistEntry[]; enabled: boolean }> {
      return { entries: (await queries.all()).map(present), enabled: (await settings.get()).ussdWhitelistEnabled }
    },

    /** For the USSD channel: may this caller use the menu? Everyone may while the whitelist is switched off. */
    async isAllowed(phone: string): Promise<boolean> {
      if (!(await settings.get()).ussdWhitelistEnabled) return true
      const local = normalizePhone(phone)
      if (!local) return false
      return queries.isActive(local)
    },

    /** Lists one number, already in its stored form (0XXXXXXXXX). */
    async add(phone: string, ctx: Ctx): Promise<WhitelistEntry> {
      const row = await queries.insert(phone)
      if (!row) throw conflict('Phone number is already whitelisted')
      const entry = present(row)
      await record('WHITELIST_ADDED', { phoneNumber: phone }, ctx, String(entry.id))
      return entry
    },

    async setActive(id: number, isActive: boolean, ctx: Ctx): Promise<WhitelistEntry> {
      const row = await queries.setActive(id, isActive)
      if (!row) throw notFound('Whitelist entry not found')
      const entry = present(row)
      await record('WHITELIST_UPDATED', { phoneNumber: entry.phoneNumber, isActive: entry.isActive }, ctx, String(id))
      return entry
    },

    async remove(id: number, ctx: Ctx): Promise<void> {
      const phone = await queries.remove(id)
      if (phone === null) throw notFound('Whitelist entry not found')
      await record('WHITELIST_REMOVED', { phoneNumber: phone }, ctx, String(id))
    },

    /**
     * Adds many numbers at once. Blank items are ignored; a number given twice (in either spelling) or
     * already listed counts as skipped; an invalid one goes to errors. One INSERT for the lot.
     */
    async bulkImport(
      phoneNumbers: Array<string | number>,
      ctx: Ctx
    ): Promise<{ results: { added: number; skipped: number; errors: Array<{ phoneNumber: string; error: string }> } }> {
      const errors: Array<{ phoneNumber: string; error: string }> = []
      const unique = new Set<string>()
      let skipped = 0
      for (const raw of phoneNumbers) {
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
        added = await queries.insertMany([...unique], ctx.transaction)
        skipped += unique.size - added
      }
      await record('WHITELIST_BULK_IMPORT', { added, skipped, errors: errors.length }, ctx)
      return { results: { added, skipped, errors } }
    }
  }
}
