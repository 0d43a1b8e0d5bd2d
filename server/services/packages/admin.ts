import type { Sequelize } from 'sequelize'
import type { Models, PackageRow } from '../../../models/index.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { createPackageQueries } from './queries.ts'

/** Spec section 9: 1 GB = 1024 MB; the smallest package an admin may create is 0.1 GB (rounded to MB). */
export const MB_PER_GB = 1024
export const MIN_SIZE_MB = Math.round(0.1 * MB_PER_GB)
/** The spec's one message for the package form. */
export const PACKAGE_FILL = 'Fill all fields correctly'

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

/** POST /api/packages: a package's fields (prices in GHS, already rounded to whole pesewas); an id updates that package. */
export interface PackageInput {
  id?: number
  network: string
  sizeMB: number
  priceUser: number
  priceAgent?: number | null
  active: boolean
  name?: string | null
}

/** '1GB', '1.5GB', '500MB': the size label the spec shows (>= 1024 MB as GB with 1 decimal at most). */
export function sizeLabel(mb: number): string {
  if (mb >= MB_PER_GB) return `${Number((mb / MB_PER_GB).toFixed(1))}GB`
  return `${mb}MB`
}

export function presentPackage(row: PackageRow): AdminPackage {
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
  const q = createPackageQueries(models)
  return {
    /** Every package, inactive ones included (the admin table); the catalogue is small. */
    listAll: async (): Promise<AdminPackage[]> => (await q.all()).map(presentPackage),

    /** POST /api/packages: creates, or updates when an id is given. */
    async save(value: PackageInput, ctx: Ctx): Promise<{ package: AdminPackage; created: boolean }> {
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
          const locked = await q.lock(value.id, transaction)
          if (!locked) throw notFound('Package not found')
          const before = presentPackage(locked.row)
          // A stored name like '1GB daily' would lie once the size changes.
          const name = value.name ? value.name : before.sizeMB === value.sizeMB ? before.name : sizeLabel(value.sizeMB)
          const after = presentPackage(await locked.update({ ...fields, name }))
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
        const pkg = presentPackage(await q.create({ ...fields, name: value.name || sizeLabel(value.sizeMB) }, transaction))
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
