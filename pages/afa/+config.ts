import type { Config } from 'vike/types'

export default {
  description: 'Register for MTN AFA (Ghana) online: fill in your details and pay the registration fee.',
  title: 'AFA Registration'
} satisfies Config
