import type { Actor } from '../services/context.ts'
import type { Logger } from '../lib/logger.ts'

declare global {
  namespace Express {
    interface Request {
      user?: Actor | null
      authVia?: 'session' | 'bearer'
      log: Logger
      id: string
      rawBody?: Buffer
    }
  }
}

declare module 'express-session' {
  interface SessionData {
    userId?: number
    csrfToken?: string
    /** Transaction ids of the payments this browser started (newest last, at most 20). */
    startedPayments?: string[]
  }
}

export {}
