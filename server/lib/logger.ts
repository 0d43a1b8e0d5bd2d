import pino from 'pino'

export type Logger = pino.Logger

/** `destination`: a file path (tests read the log of a run); stdout when absent. */
export function createLogger(level = 'info', destination?: string): Logger {
  const opts: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: {
      paths: [
        'password',
        '*.password',
        'newPassword',
        '*.newPassword',
        'confirmPassword',
        '*.confirmPassword',
        'code',
        '*.code',
        'pin',
        '*.pin',
        'token',
        '*.token',
        'accessToken',
        'refreshToken',
        'req.headers.authorization',
        'req.headers.cookie',
        'headers["x-paystack-signature"]'
      ],
      censor: '[redacted]'
    }
  }
  return destination ? pino(opts, pino.destination({ dest: destination, sync: true })) : pino(opts)
}
