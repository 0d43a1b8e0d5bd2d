import type { PageContextServer } from 'vike/types'

export interface ForgotData {
  /** False in production with a real payment gateway but no SMS provider and no SMTP: reset is then by support. */
  available: boolean
}

export async function data(pageContext: PageContextServer): Promise<ForgotData> {
  return { available: pageContext.services?.recovery.available() ?? true }
}
