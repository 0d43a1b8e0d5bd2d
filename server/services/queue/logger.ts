import { Logger as GraphileLogger } from 'graphile-worker'
import type { Logger } from '../../lib/logger.ts'

/** graphile-worker's messages go to our one pino logger (its debug chatter at debug level). */
export function graphileLogger(log: Logger): GraphileLogger {
  const child = log.child({ component: 'queue' })
  return new GraphileLogger(() => (level, message, meta) => {
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug'
    child[l](meta ?? {}, message)
  })
}
