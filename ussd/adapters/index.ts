import { africasTalking } from './africastalking.ts'
import { arkesel } from './arkesel.ts'
import type { UssdAdapter } from './types.ts'

/** Gateways by URL segment: POST /ussd/<name>. */
export const ADAPTERS: Record<string, UssdAdapter> = {
  africastalking: africasTalking,
  arkesel
}
