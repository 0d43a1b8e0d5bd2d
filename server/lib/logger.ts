import pino from 'pino'

export type Logger = pino.Logger

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['password', '*.password', 'pin', '*.pin', 'token', '*.token', 'accessToken', 'refreshToken', 'req.headers.authorization', 'req.headers.cookie', 'headers["x-paystack-signature"]'],
      censor: '[redacted]',
    },
  })
}
