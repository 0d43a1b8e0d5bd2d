/** A failure the client caused or may see; `status` becomes the HTTP status, `message` the `error` text. */
export class AppError extends Error {
  readonly status: number
  readonly extra?: Record<string, unknown>
  constructor(status: number, message: string, extra?: Record<string, unknown>) {
    super(message)
    this.status = status
    this.extra = extra
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, message, extra)
export const unauthorized = (message = 'Authentication required') => new AppError(401, message)
export const forbidden = (message = 'Forbidden') => new AppError(403, message)
export const notFound = (message = 'Not found') => new AppError(404, message)
export const conflict = (message: string) => new AppError(409, message)
export const tooMany = (message = 'Too many attempts. Please try again later.') => new AppError(429, message)
