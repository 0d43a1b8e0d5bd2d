import type { Config } from 'vike/types'

export default {
  description: 'Buy MTN, Telecel and AirtelTigo data bundles in Ghana with mobile money or card, delivered to any number.',
  title: 'Home'
} satisfies Config
