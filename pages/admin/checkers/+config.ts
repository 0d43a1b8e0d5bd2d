import type { Config } from 'vike/types'

export default { title: 'Result checkers' } satisfies Config
