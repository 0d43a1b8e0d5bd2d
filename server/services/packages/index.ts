import Joi from 'joi'
import type { Models, PackageRow as PackageModelRow } from '../../../models/index.ts'
import { badRequest } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { formatSize, networkLabel } from '../../lib/vocabulary.ts'
import { NETWORKS, orList } from '../../lib/vocabulary.ts'
import { createPackageQueries } from './queries.ts'

/** A package's row; the timestamps are left out because the catalogue neither reads nor sends them. */
export type PackageRow = Omit<PackageModelRow, 'createdAt' | 'updatedAt'>

/** The API's view of a package (GHS, sizeMB as the spec spells it). */
export function presentPackage(p: PackageRow) {
  return {
    id: p.id,
    network: p.network,
    name: p.name ?? `${formatSize(p.sizeMb)} ${networkLabel(p.network)}`,
    sizeMB: p.sizeMb,
    priceUser: toGhs(p.priceUserPesewas),
    priceAgent: toGhs(p.priceAgentPesewas),
    price: toGhs(p.priceUserPesewas),
    active: p.active
  }
}

export const networkQuery = Joi.string()
  .trim()
  .uppercase()
  .valid(...NETWORKS)
  .messages({ 'any.only': `Network must be ${orList(NETWORKS)}` })

export type PackagesService = ReturnType<typeof createPackagesService>

/**
 * The active catalogue is read by every storefront request and page; it changes a few times a day.
 * It is kept per instance for a few seconds (another instance's change is seen within that time)
 * and dropped at once when this instance writes a package.
 */
const ACTIVE_CACHE_MS = 5000
const WRITE_HOOKS = ['afterCreate', 'afterUpdate', 'afterDestroy', 'afterUpsert', 'afterBulkCreate', 'afterBulkUpdate', 'afterBulkDestroy'] as const

export function createPackagesService({ models }: { models: Models }) {
  const q = createPackageQueries(models)
  let version = 1
  const listeners = new Set<() => void>()
  const active = new Map<string, { at: number; version: number; list: Promise<PackageRow[]> }>()
  const changed = () => {
    version++
    active.clear()
    for (const fn of listeners) fn()
  }
  // Every write to packages, from any service or script of this process, moves the version. A write
  // inside a transaction moves it again at commit: a read between the two saw the old rows.
  for (const hook of WRITE_HOOKS) {
    models.Package.addHook(hook, 'packages-version', (...args: any[]) => {
      changed()
      const tx = args.find((a) => a && typeof a === 'object' && 'transaction' in a)?.transaction
      tx?.afterCommit?.(changed)
    })
  }

  return {
    present: presentPackage,
    /** Moves on every package write in this instance; caches of what depends on the catalogue key on it. */
    version: () => version,
    /** Called after every package write in this instance (the page cache listens). */
    onChange(fn: () => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    /** Forgets the cached catalogue (another instance wrote it; tests). */
    invalidate: changed,
    /** Active packages by ascending size, optionally for one network (a few seconds' cache). Callers must not mutate the rows. */
    async listActive(opts: { network?: string } = {}): Promise<PackageRow[]> {
      let network: string | undefined
      if (opts.network !== undefined) {
        const { value, error } = networkQuery.validate(opts.network)
        if (error) throw badRequest(error.details[0]!.message)
        network = value
      }
      const key = network ?? '*'
      const hit = active.get(key)
      if (hit && hit.version === version && Date.now() - hit.at < ACTIVE_CACHE_MS) return hit.list
      const list: Promise<PackageRow[]> = q.active(network)
      const entry = { at: Date.now(), version, list }
      active.set(key, entry)
      list.catch(() => active.get(key) === entry && active.delete(key))
      return list
    },
    /** Every package, active or not (admins). */
    async listAll(opts: { network?: string } = {}): Promise<PackageRow[]> {
      let network: string | undefined
      if (opts.network !== undefined) {
        const { value, error } = networkQuery.validate(opts.network)
        if (error) throw badRequest(error.details[0]!.message)
        network = value
      }
      return q.all(network)
    },
    /** The package as it is now (no cache): what an order is priced from. */
    async getActive(id: number): Promise<PackageRow | null> {
      // packages.id is an integer column: a larger id names no package (PostgreSQL would refuse the parameter).
      if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null
      return q.activeById(id)
    },
    findActiveBySize: (network: string, sizeMb: number): Promise<PackageRow | null> => q.activeBySize(network, sizeMb)
  }
}
