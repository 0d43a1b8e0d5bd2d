import { Logger as GraphileLogger } from 'graphile-worker'
import type { Logger } from '../../lib/logger.ts'

/** The parts of a job a log line needs; its payload (phone numbers, references) stays out. */
function compact(meta: Record<string, any> | undefined): Record<string, unknown> {
  if (!meta) return {}
  const { job, error, ...rest } = meta
  return {
    ...rest,
    ...(job ? { job: { id: job.id, task: job.task_identifier, attempts: job.attempts, maxAttempts: job.max_attempts } } : {}),
    ...(error ? { err: error instanceof Error ? error.message : String(error) } : {}),
  }
}

/**
 * graphile-worker's messages go to our one pino logger. Its info messages (a worker connected, each
 * job completed: three every minute from the crontab alone) are routine, so they go to debug; what a
 * person acts on (a failed job, a lost connection) keeps its warn or error level.
 */
export function graphileLogger(log: Logger): GraphileLogger {
  const child = log.child({ component: 'queue' })
  return new GraphileLogger(() => (level, message, meta) => {
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug'
    child[l](compact(meta), message)
  })
}
