import type { Actor } from '../services/context.ts'
import type { Logger } from '../lib/logger.ts'

declare global {
  namespace Express {
    interface Request {
      user?: Actor | null
      authVia?: 'session' | 'bearer'
      /** The bearer token's family (one sign-in), when the request came with a token. */
      tokenFamily?: string | null
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
    /** The user's session epoch at sign-in; an older one than the user's current means the session was ended. */
    epoch?: number
    /** Transaction ids of the payments this browser started (newest last, at most 20), in sessions saved before the signed cookie held them: read, never written. */
    startedPayments?: string[]
  }
}

export {}
