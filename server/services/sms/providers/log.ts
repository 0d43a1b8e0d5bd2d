import { randomUUID } from 'node:crypto'
import type { Logger } from '../../../lib/logger.ts'
import type { SmsProvider } from '../provider.ts'

/** The default: writes the message to the log and reports it sent (a fresh install sends nothing out). */
export function createLogProvider(log: Logger): SmsProvider {
  return {
    name: 'log',
    async send({ to, message, sender, sensitive }) {
      // A one-time code never reaches a log line; the admin SMS page shows it on a fresh machine.
      log.info(sensitive ? { to, sender, sensitive: true } : { to, sender, message }, 'sms (log provider): not sent to a gateway')
      return { messageId: `log-${randomUUID()}` }
    }
  }
}
