import { Logger as GraphileLogger } from 'graphile-worker'
import type { Logger } from '../../lib/logger.ts'

/**
 * Thrown by a task that has already logged its failure with only what is safe to keep (a host, a
 * status): the queue still retries it, and notes the failure at debug level only.
 */
export class ReportedFailure extends Error {
  /** A short code for the caller (ECONNREFUSED, EPRIVATEADDRESS...), as the original error carried it. */
  readonly code?: string
  constructor(message: string, code?: string) {
    super(message)
    this.code = code
  }
}

/**
 * The parts of a job a log line needs. Its payload (phone numbers, order details) stays out, and so
 * does the error object: an HTTP client's error carries the whole request (signature headers, body).
 */
function compact(meta: Record<string, any> | undefined): Record<string, unknown> {
  if (!meta) return {}
  const { job, error, failure: _failure, ...rest } = meta
  return {
    ...rest,
    ...(job ? { job: { id: job.id, task: job.task_identifier, attempts: job.attempts, maxAttempts: job.max_attempts } } : {}),
    ...(error ? { err: error instanceof Error ? error.message : String(error) } : {})
  }
}

/**
 * graphile-worker's messages go to our one pino logger. Its info messages (a worker connected, each
 * job completed: three every minute from the crontab alone) are routine, so they go to debug; what a
 * person acts on (a failed job, a lost connection) keeps its warn or error level, except a failure
 * the task has already reported safely.
 */
export function graphileLogger(log: Logger): GraphileLogger {
  const child = log.child({ component: 'queue' })
  return new GraphileLogger(() => (level, message, meta) => {
    if (meta?.failure && meta.error instanceof ReportedFailure) return child.debug(compact(meta), `job failed: ${meta.error.message}`)
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug'
    child[l](compact(meta), message)
  })
}
