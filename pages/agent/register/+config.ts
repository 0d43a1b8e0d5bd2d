import type { Config } from 'vike/types'

export default { description: 'Become a Data Hub agent: sell data bundles at agent prices and earn commission.', title: 'Become an Agent' } satisfies Config
