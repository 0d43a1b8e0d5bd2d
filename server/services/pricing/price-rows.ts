import type { Sequelize, Transaction } from 'sequelize'
import { badRequest } from '../../lib/errors.ts'
import { formatCedis, toGhs, toPesewas } from '../../lib/money.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Settings } from '../settings/index.ts'
import { ceilingOf, pricesSchema } from '../shops/rules.ts'
import { createPricingQueries, type PriceTable } from './queries.ts'

/** A price an agent sets for others (its shop's buyers, its sub-agents) per package; null removes it. */
export interface PriceChange {
  packageId: number
  price: number | null
}

/**
 * Checks a `{ prices: [{ packageId, price }] }` body an agent sends for a price it sets above its own
 * cost: each price between the floor (what the agent itself pays) and the ceiling of today's markup
 * rule. Throws 400 with the bundle's name on the first one outside; nothing is written by the caller then.
 */
export function checkPriceChanges(
  body: unknown,
  active: Map<number, PackageRow>,
  floorOf: (pkg: PackageRow) => number,
  s: Pick<Settings, 'shopMaxMarkupType' | 'shopMaxMarkupValue'>,
  opts: { nameOf: (pkg: PackageRow) => string; floorWord: string }
): PriceChange[] {
  const { value, error } = pricesSchema.validate(body)
  if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
  const changes: PriceChange[] = []
  for (const line of value.prices as PriceChange[]) {
    const pkg = active.get(line.packageId)
    if (!pkg) throw badRequest('A bundle in the list is not on sale any more. Please reload the page')
    if (line.price === null) {
      changes.push({ packageId: pkg.id, price: null })
      continue
    }
    const floor = floorOf(pkg)
    const ceiling = ceilingOf(floor, s)
    const price = toPesewas(line.price)
    if (price < floor) throw badRequest(`${opts.nameOf(pkg)}: the price cannot be below ${opts.floorWord} of ${formatCedis(toGhs(floor))}`)
    if (price > ceiling) throw badRequest(`${opts.nameOf(pkg)}: the price cannot be above the maximum of ${formatCedis(toGhs(ceiling))}`)
    changes.push({ packageId: pkg.id, price })
  }
  return changes
}

/** Writes the checked changes in the caller's transaction (an order placed at a price holds the row FOR SHARE, so this waits for it). */
export async function writePriceChanges(sequelize: Sequelize, where: PriceTable, ownerId: number, changes: PriceChange[], t: Transaction): Promise<void> {
  const queries = createPricingQueries(sequelize)
  for (const c of changes) {
    if (c.price === null) await queries.deletePriceRow(where, ownerId, c.packageId, t)
    else await queries.upsertPriceRow(where, ownerId, c.packageId, c.price, t)
  }
}
