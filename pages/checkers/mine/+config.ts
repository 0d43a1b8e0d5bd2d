import type { Config } from 'vike/types'

export default { description: 'Your result checker cards: on this browser, or by the paying phone and transaction id.', title: 'My Checkers' } satisfies Config
