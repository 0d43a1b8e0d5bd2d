import { Logger as GraphileLogger } from 'graphile-worker'
import type { Logger } from '../../lib/logger.ts'

/**
 * Thrown by a task that has already logged its failure with only what is safe to keep (a host, a
 * status): the queue still retries it, and notes the failure at debug level only.
 */
export class ReportedFailure extends Error {}

interface FailureMeta { failure: true; job: { id: string; task_identifier: string; attempts: number; max_attempts: number }; error: unknown; duration: number }

/** graphile-worker's messages go to our one pino logger (its debug chatter at debug level). */
export function graphileLogger(log: Logger): GraphileLogger {
  const child = log.child({ component: 'queue' })
  return new GraphileLogger(() => (level, message, meta) => {
    if ((meta as Partial<FailureMeta> | undefined)?.failure) return logFailure(child, message, meta as unknown as FailureMeta)
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug'
    child[l](meta ?? {}, message)
  })
}

// A failed job's payload (phone numbers, order details) and its error object (an HTTP client's error
// carries the whole request: headers with signatures, the body) stay out of the log: the job names it.
function logFailure(log: Logger, message: string, { job, error, duration }: FailureMeta) {
  const fields = { task: job.task_identifier, jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts, duration: Math.round(duration) }
  if (error instanceof ReportedFailure) log.debug(fields, `job failed: ${error.message}`)
  else log.error(fields, message)
}
