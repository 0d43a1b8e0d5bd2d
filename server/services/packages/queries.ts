import type { Transaction } from 'sequelize'
import type { Models, PackageRow } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'

// The packages capability's reads and writes of its own rows, typed (camelCase, as the model names them).

/** The package row fields an admin's save writes. */
export type PackageFields = Pick<PackageRow, 'network' | 'name' | 'sizeMb' | 'priceUserPesewas' | 'priceAgentPesewas' | 'active'>

/** The same keys as the model's plain row. */
const GET_ACTIVE = `SELECT id, network, name, size_mb AS "sizeMb", price_user_pesewas AS "priceUserPesewas", price_agent_pesewas AS "priceAgentPesewas",
    active, created_at AS "createdAt", updated_at AS "updatedAt"
  FROM packages WHERE id = $1 AND active`

/**
 * The active package by id as one JSON column of another statement that reads it beside what it needs at the same
 * moment (the reseller API's key statement): the same row as `activeById`, null when no active package has that id.
 * `idSql` is an integer parameter; `packageOfJson` maps the column back.
 */
export const activePackageJson = (idSql: string) =>
  `(SELECT json_build_object('id', id, 'network', network, 'name', name, 'sizeMb', size_mb, 'priceUserPesewas', price_user_pesewas,
      'priceAgentPesewas', price_agent_pesewas, 'active', active, 'createdAt', created_at, 'updatedAt', updated_at)
    FROM packages WHERE id = ${idSql} AND active)`

/** A column made by `activePackageJson` as the row `activeById` returns (its times as Dates). */
export const packageOfJson = (j: Record<string, any> | null): PackageRow | null =>
  j ? ({ ...j, createdAt: new Date(j.createdAt), updatedAt: new Date(j.updatedAt) } as PackageRow) : null

export function createPackageQueries(models: Models) {
  const plain = (r: { get(o: { plain: true }): unknown }) => r.get({ plain: true }) as PackageRow
  const run = preparedFor(models.Package.sequelize!)
  const whereNetwork = (where: Record<string, unknown>, network?: string) => (network === undefined ? where : { ...where, network })

  return {
    /** Active packages by ascending size, then price. */
    active: async (network?: string): Promise<PackageRow[]> =>
      (
        await models.Package.findAll({
          where: whereNetwork({ active: true }, network),
          order: [
            ['sizeMb', 'ASC'],
            ['priceUserPesewas', 'ASC'],
            ['id', 'ASC']
          ]
        })
      ).map(plain),
    /** Every package, active or not, by network and size. */
    all: async (network?: string): Promise<PackageRow[]> =>
      (
        await models.Package.findAll({
          where: whereNetwork({}, network),
          order: [
            ['network', 'ASC'],
            ['sizeMb', 'ASC'],
            ['id', 'ASC']
          ]
        })
      ).map(plain),
    // Every order placed reads it: a named statement, no model instance (ADR 0024).
    activeById: async (id: number): Promise<PackageRow | null> => (await run<PackageRow>(GET_ACTIVE, [id]))[0] ?? null,
    activeBySize: async (network: string, sizeMb: number): Promise<PackageRow | null> => {
      const row = await models.Package.findOne({ where: { network, sizeMb, active: true }, order: [['id', 'ASC']] })
      return row ? plain(row) : null
    },
    /**
     * The package under a row lock, and its update: through the instance, so only changed columns are
     * written (an unchanged save keeps its updatedAt) and the model's write hooks fire.
     */
    async lock(id: number, transaction: Transaction) {
      const row = await models.Package.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE })
      if (!row) return null
      return { row: plain(row), update: async (fields: PackageFields) => plain(await row.update(fields, { transaction })) }
    },
    create: async (fields: PackageFields, transaction: Transaction): Promise<PackageRow> => plain(await models.Package.create(fields, { transaction }))
  }
}
