import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { roundGhs, toGhs, toPesewas } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'

/** Spec section 9: 1 GB = 1024 MB; the smallest package an admin may create is 0.1 GB (rounded to MB). */
export const MB_PER_GB = 1024
export const MIN_SIZE_MB = Math.round(0.1 * MB_PER_GB)
const FILL = 'Fill all fields correctly'

/** A package as the API speaks it (prices in GHS). */
export interface AdminPackage {
  id: number
  network: string
  name: string | null
  sizeMB: number
  priceUser: number
  priceAgent: number | null
  active: boolean
  createdAt: string
  updatedAt: string
}

// A price is at least 1 pesewa after rounding (0.004 is not a price), and the agent price is
// never above the user price (checked on the whole object below).
const price = Joi.number()
  .max(100000)
  .custom((v: number, h) => (toPesewas(v) >= 1 ? roundGhs(v) : h.error('price.zero')))
  .messages({ 'price.zero': '{#label} must be at least 0.01 GHS' })
export const packageSchema = Joi.object({
  id: Joi.number().integer().min(1),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .required(),
  sizeMB: Joi.number()
    .integer()
    .min(MIN_SIZE_MB)
    .max(1024 * MB_PER_GB)
    .required(),
  priceUser: price.required(),
  priceAgent: price.allow(null),
  active: Joi.boolean().default(true),
  name: Joi.string().trim().max(60).allow('', null)
}).options({ stripUnknown: true, convert: true })

/** '1GB', '1.5GB', '500MB': the size label the spec shows (>= 1024 MB as GB with 1 decimal at most). */
export function sizeLabel(mb: number): string {
  if (mb >= MB_PER_GB) return `${Number((mb / MB_PER_GB).toFixed(1))}GB`
  return `${mb}MB`
}

export function presentPackage(row: Record<string, any>): AdminPackage {
  return {
    id: row.id,
    network: row.network,
    name: row.name ?? null,
    sizeMB: row.sizeMb,
    priceUser: toGhs(row.priceUserPesewas)!,
    priceAgent: toGhs(row.priceAgentPesewas),
    active: row.active !== false,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString()
  }
}

export function createPackagesAdminService({ sequelize, models, audit }: { sequelize: Sequelize; models: Models; audit: AuditService }) {
  return {
    /** Every package, inactive ones included (the admin table); the catalogue is small. */
    async listAll(): Promise<AdminPackage[]> {
      const rows = await models.Package.findAll({
        order: [
          ['network', 'ASC'],
          ['sizeMb', 'ASC'],
          ['id', 'ASC']
        ]
      })
      return rows.map((r) => presentPackage(r.get({ plain: true })))
    },

    /** POST /api/packages: creates, or updates when an id is given. */
    async save(input: unknown, ctx: Ctx): Promise<{ package: AdminPackage; created: boolean }> {
      const { value, error } = packageSchema.validate(input ?? {})
      // The spec's one message for the form; the field-level reason goes along for API clients.
      if (error) throw badRequest(FILL, { details: error.details[0]!.message.replace(/"/g, '') })
      if (value.priceAgent !== null && value.priceAgent !== undefined && toPesewas(value.priceAgent) > toPesewas(value.priceUser)) {
        throw badRequest('Agent price cannot be above the user price', { details: 'priceAgent must not exceed priceUser' })
      }
      const fields = {
        network: value.network,
        sizeMb: value.sizeMB,
        priceUserPesewas: toPesewas(value.priceUser),
        priceAgentPesewas: value.priceAgent === null || value.priceAgent === undefined ? null : toPesewas(value.priceAgent),
        active: value.active
      }
      return sequelize.transaction(async (transaction) => {
        const tctx = { ...ctx, transaction }
        if (value.id) {
          const row = await models.Package.findByPk(value.id, { transaction, lock: transaction.LOCK.UPDATE })
          if (!row) throw notFound('Package not found')
          const before = presentPackage(row.get({ plain: true }))
          // A stored name like '1GB daily' would lie once the size changes.
          const name = value.name ? value.name : before.sizeMB === value.sizeMB ? before.name : sizeLabel(value.sizeMB)
          await row.update({ ...fields, name }, { transaction })
          const after = presentPackage(row.get({ plain: true }))
          const changed = (['network', 'name', 'sizeMB', 'priceUser', 'priceAgent', 'active'] as const).filter((k) => before[k] !== after[k])
          await audit.record(
            {
              action: 'PACKAGE_UPDATED',
              resource: 'SYSTEM',
              resourceId: `package:${after.id}`,
              severity: 'MEDIUM',
              details: { packageId: after.id, changed, before: pick(before, changed), after: pick(after, changed) }
            },
            tctx
          )
          return { package: after, created: false }
        }
        const row = await models.Package.create({ ...fields, name: value.name || sizeLabel(value.sizeMB) }, { transaction })
        const pkg = presentPackage(row.get({ plain: true }))
        await audit.record(
          {
            action: 'PACKAGE_CREATED',
            resource: 'SYSTEM',
            resourceId: `package:${pkg.id}`,
            severity: 'MEDIUM',
            details: { packageId: pkg.id, network: pkg.network, sizeMB: pkg.sizeMB, priceUser: pkg.priceUser, priceAgent: pkg.priceAgent, active: pkg.active }
          },
          tctx
        )
        return { package: pkg, created: true }
      })
    }
  }
}

function pick<T extends object>(o: T, keys: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>
}
