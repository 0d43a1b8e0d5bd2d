import type { Config } from 'vike/types'

export default {
  description: 'Buy WASSCE, BECE and placement result checker cards with mobile money: serial and PIN at once and by SMS.',
  title: 'Result Checkers'
} satisfies Config
