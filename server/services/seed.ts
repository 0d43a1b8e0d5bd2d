import crypto from 'node:crypto'
import type { Logger } from '../lib/logger.ts'
import { toPesewas } from '../lib/money.ts'
import type { Services } from './index.ts'
import { DEFAULT_SETTINGS } from './settings.ts'
import type { Models } from '../../models/index.ts'

// Spec section 9: 1GB daily, 3GB weekly, 10GB monthly per network.
export const SAMPLE_PACKAGES = [
  { network: 'MTN', prices: [5, 15, 50] },
  { network: 'TELECEL', prices: [4.5, 14, 45] },
  { network: 'AIRTELTIGO', prices: [4.8, 14.5, 48] },
].flatMap(({ network, prices }) =>
  [
    { name: '1GB daily', sizeMb: 1024 },
    { name: '3GB weekly', sizeMb: 3 * 1024 },
    { name: '10GB monthly', sizeMb: 10 * 1024 },
  ].map((p, i) => ({ network, name: p.name, sizeMb: p.sizeMb, priceUserPesewas: toPesewas(prices[i]!), priceAgentPesewas: null, active: true })),
)

/** First start: the settings row, the sample packages and a first admin. Idempotent. */
export async function seedDefaults(models: Models, services: Services, opts: { adminEmail?: string; adminPassword?: string; log: Logger }) {
  const [, created] = await models.Settings.findOrCreate({ where: { id: 1 }, defaults: { id: 1, data: {} } })
  if (created) opts.log.info('settings seeded with defaults')
  void DEFAULT_SETTINGS
  if ((await models.Package.count()) === 0) {
    await models.Package.bulkCreate(SAMPLE_PACKAGES)
    opts.log.info({ count: SAMPLE_PACKAGES.length }, 'sample packages seeded')
  }
  if ((await models.User.count({ where: { role: 'ADMIN' } })) === 0) {
    const email = opts.adminEmail ?? 'admin@datahub.local'
    const password = opts.adminPassword ?? crypto.randomBytes(12).toString('base64url')
    await services.auth.createUser({ email, password, role: 'ADMIN', name: 'Administrator' })
    if (opts.adminPassword) opts.log.info({ email }, 'first admin created from ADMIN_EMAIL / ADMIN_PASSWORD')
    // Printed once, straight to stdout (not through the redacting logger), so the owner can sign in.
    else console.log(`\n  First admin created.\n  Email:    ${email}\n  Password: ${password}\n  (shown once; change it after signing in)\n`)
  }
}
