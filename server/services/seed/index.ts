import crypto from 'node:crypto'
import type { Logger } from '../../lib/logger.ts'
import { formatCedis, toGhs, toPesewas } from '../../lib/money.ts'
import type { Services } from '../index.ts'
import type { Models } from '../../../models/index.ts'

// Spec section 9: 1GB daily, 3GB weekly, 10GB monthly per network; [public price, agent price] in GHS.
// The agent prices sit about 10% under the public ones, the margin Ghanaian vendors give resellers.
const SAMPLE_PRICES = [
  {
    network: 'MTN',
    prices: [
      [5, 4.5],
      [15, 13.5],
      [50, 45]
    ]
  },
  {
    network: 'TELECEL',
    prices: [
      [4.5, 4.1],
      [14, 12.6],
      [45, 40.5]
    ]
  },
  {
    network: 'AIRTELTIGO',
    prices: [
      [4.8, 4.35],
      [14.5, 13.1],
      [48, 43.2]
    ]
  }
] as const

const SIZES = [
  { name: '1GB daily', sizeMb: 1024 },
  { name: '3GB weekly', sizeMb: 3 * 1024 },
  { name: '10GB monthly', sizeMb: 10 * 1024 }
]

/** The sample packages; `withAgentPrices` false leaves agents paying the public price (the tests' baseline). */
export function samplePackages(withAgentPrices: boolean) {
  return SAMPLE_PRICES.flatMap(({ network, prices }) =>
    SIZES.map((p, i) => ({
      network,
      name: p.name,
      sizeMb: p.sizeMb,
      priceUserPesewas: toPesewas(prices[i]![0]),
      priceAgentPesewas: withAgentPrices ? toPesewas(prices[i]![1]) : null,
      active: true
    }))
  )
}

/** The one-time agent registration fee a fresh machine starts with (the spec's default stays 0). */
export const SAMPLE_AGENT_FEE_PESEWAS = 5000

export interface SeedOptions {
  adminEmail?: string
  adminPassword?: string
  log: Logger
  /**
   * A real first start: agent prices under the public ones and an agent registration fee, so the
   * agent programme shows as it is meant to work. Tests seed without them and set prices themselves.
   */
  sampleBusiness?: boolean
}

/** First start: the settings row, the sample packages and a first admin. Idempotent. */
export async function seedDefaults(models: Models, services: Services, opts: SeedOptions) {
  const sample = opts.sampleBusiness ?? false
  const data = sample ? { agentRegistrationFeePesewas: SAMPLE_AGENT_FEE_PESEWAS } : {}
  const [, created] = await models.Settings.findOrCreate({ where: { id: 1 }, defaults: { id: 1, data } })
  if (created) opts.log.info('settings seeded with defaults')
  if ((await models.Package.count()) === 0) {
    const packages = samplePackages(sample)
    await models.Package.bulkCreate(packages)
    if (sample) {
      opts.log.info(
        { count: packages.length, agentFee: formatCedis(toGhs(SAMPLE_AGENT_FEE_PESEWAS)) },
        'sample packages seeded with agent prices about 10% under the public ones; change prices at /admin/packages and the agent registration fee at /admin/settings'
      )
    } else opts.log.info({ count: packages.length }, 'sample packages seeded')
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
