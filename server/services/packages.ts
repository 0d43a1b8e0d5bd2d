import Joi from 'joi'
import type { Models } from '../../models/index.ts'
import { badRequest } from '../lib/errors.ts'
import { toGhs } from '../lib/money.ts'
import type { Actor } from './context.ts'
import { NETWORKS } from './settings.ts'

export interface PackageRow {
  id: number
  network: string
  name: string | null
  sizeMb: number
  priceUserPesewas: number
  priceAgentPesewas: number | null
  active: boolean
}

/** The API's view of a package (GHS, sizeMB as the spec spells it). */
export function presentPackage(p: PackageRow) {
  return {
    id: p.id,
    network: p.network,
    name: p.name ?? `${p.sizeMb >= 1024 ? `${(p.sizeMb / 1024).toFixed(1)}GB` : `${p.sizeMb}MB`} ${p.network}`,
    sizeMB: p.sizeMb,
    priceUser: toGhs(p.priceUserPesewas),
    priceAgent: toGhs(p.priceAgentPesewas),
    price: toGhs(p.priceUserPesewas),
    active: p.active,
  }
}

/** Approved agents pay priceAgent when it is set; everyone else pays priceUser. */
export function priceFor(pkg: Pick<PackageRow, 'priceUserPesewas' | 'priceAgentPesewas'>, actor?: Actor | null): number {
  const approvedAgent = actor?.role === 'AGENT' && actor.agent?.approved === true
  if (approvedAgent && pkg.priceAgentPesewas !== null && pkg.priceAgentPesewas !== undefined) return pkg.priceAgentPesewas
  return pkg.priceUserPesewas
}

export const networkQuery = Joi.string().trim().uppercase().valid(...NETWORKS).messages({ 'any.only': 'Network must be MTN, TELECEL or AIRTELTIGO' })

export type PackagesService = ReturnType<typeof createPackagesService>

export function createPackagesService({ models }: { models: Models }) {
  const plain = (r: any) => r.get({ plain: true }) as PackageRow
  return {
    priceFor,
    present: presentPackage,
    /** Active packages by ascending size, optionally for one network. */
    async listActive(opts: { network?: string } = {}): Promise<PackageRow[]> {
      const where: Record<string, unknown> = { active: true }
      if (opts.network !== undefined) {
        const { value, error } = networkQuery.validate(opts.network)
        if (error) throw badRequest(error.details[0]!.message)
        where.network = value
      }
      const rows = await models.Package.findAll({ where, order: [['sizeMb', 'ASC'], ['priceUserPesewas', 'ASC'], ['id', 'ASC']] })
      return rows.map(plain)
    },
    /** Every package, active or not (admins). */
    async listAll(opts: { network?: string } = {}): Promise<PackageRow[]> {
      const where: Record<string, unknown> = {}
      if (opts.network !== undefined) {
        const { value, error } = networkQuery.validate(opts.network)
        if (error) throw badRequest(error.details[0]!.message)
        where.network = value
      }
      const rows = await models.Package.findAll({ where, order: [['network', 'ASC'], ['sizeMb', 'ASC'], ['id', 'ASC']] })
      return rows.map(plain)
    },
    async getActive(id: number): Promise<PackageRow | null> {
      if (!Number.isSafeInteger(id) || id <= 0) return null
      const row = await models.Package.findOne({ where: { id, active: true } })
      return row ? plain(row) : null
    },
    async findActiveBySize(network: string, sizeMb: number): Promise<PackageRow | null> {
      const row = await models.Package.findOne({ where: { network, sizeMb, active: true }, order: [['id', 'ASC']] })
      return row ? plain(row) : null
    },
  }
}
