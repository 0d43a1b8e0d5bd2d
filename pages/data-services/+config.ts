import type { Config } from 'vike/types'

export default {
  description: 'Pick a data bundle for MTN, Telecel or AirtelTigo, pay with mobile money or card, and track your orders.',
  title: 'Buy Data'
} satisfies Config
