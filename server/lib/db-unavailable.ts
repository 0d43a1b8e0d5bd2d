/**
 * Errors that mean "the database cannot be reached right now" (stopped, restarting, network gone),
 * as opposed to a bad statement: the request may well succeed once it is back, so it is answered
 * 503 with Retry-After instead of 500, and background work waits for it instead of giving up.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'])
// 57P01-03: the server is shutting down or starting up; class 08: connection exceptions.
const SQLSTATE = /^(57P0[123]|08\d{3})$/
const PG_MESSAGES =
  /Connection terminated|not queryable|connection is closed|Connection ended|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)/i
const SEQUELIZE_NAMES = new Set([
  'SequelizeConnectionError',
  'SequelizeConnectionRefusedError',
  'SequelizeConnectionTimedOutError',
  'SequelizeHostNotFoundError',
  'SequelizeHostNotReachableError',
  'SequelizeConnectionAcquireTimeoutError'
])

export const RETRY_AFTER_SECONDS = 5
export const DB_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a few seconds.'

export function isDbUnavailable(err: unknown): boolean {
  // Sequelize and pg wrap the socket's error (parent/original/cause); look a few levels down.
  let e = err as any
  for (let depth = 0; e && depth < 5; depth++) {
    if (SEQUELIZE_NAMES.has(e.name)) return true
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true
    // A Unix socket whose server is down is missing, not refusing.
    if (e.code === 'ENOENT' && e.syscall === 'connect') return true
    if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true
    e = e.parent ?? e.original ?? e.cause
  }
  return false
}
