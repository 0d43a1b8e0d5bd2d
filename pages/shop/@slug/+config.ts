import type { Config } from 'vike/types'

export default {
  description: "An agent's data bundle shop: MTN, Telecel and AirtelTigo bundles, paid by mobile money or card.",
  title: 'Shop'
} satisfies Config
