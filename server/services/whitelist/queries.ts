import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'

// The USSD whitelist's statements, returning typed camelCase rows.

export interface WhitelistRow {
  id: number
  phoneNumber: string
  isActive: boolean
  addedAt: Date
}

export function createWhitelistQueries(sequelize: Sequelize, models: Models) {
  const plain = (row: { get(o: { plain: true }): unknown }) => row.get({ plain: true }) as WhitelistRow
  return {
    all: async (): Promise<WhitelistRow[]> =>
      (
        await models.UssdWhitelist.findAll({
          order: [
            ['addedAt', 'DESC'],
            ['id', 'DESC']
          ]
        })
      ).map(plain),
    isActive: async (phone: string) => (await models.UssdWhitelist.count({ where: { phoneNumber: phone, isActive: true } })) > 0,
    /** The new row, or null when the number is listed already. */
    insert: async (phone: string): Promise<WhitelistRow | null> => {
      try {
        return plain(await models.UssdWhitelist.create({ phoneNumber: phone, isActive: true }))
      } catch (err) {
        if (err instanceof UniqueConstraintError) return null
        throw err
      }
    },
    /** The updated row, or null when there is no such entry. */
    setActive: async (id: number, isActive: boolean): Promise<WhitelistRow | null> => {
      const row = await models.UssdWhitelist.findByPk(id)
      if (!row) return null
      await row.update({ isActive })
      return plain(row)
    },
    /** The removed number, or null when there is no such entry. */
    remove: async (id: number): Promise<string | null> => {
      const row = await models.UssdWhitelist.findByPk(id)
      if (!row) return null
      const phone = String(row.get('phoneNumber'))
      await row.destroy()
      return phone
    },
    /** One INSERT for the lot; answers how many were new. */
    insertMany: async (phones: string[], transaction?: Transaction): Promise<number> =>
      (
        await sequelize.query(`INSERT INTO ussd_whitelist (phone_number) SELECT unnest($1::varchar[]) ON CONFLICT (phone_number) DO NOTHING RETURNING id`, {
          bind: [phones],
          type: QueryTypes.SELECT,
          transaction
        })
      ).length
  }
}
