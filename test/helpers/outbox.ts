import { QueryTypes } from 'sequelize'
import { app } from './server.ts'

/** The SMS messages queued for a number, newest first (the outbox is the phone until a provider sends). */
export async function outboxFor(phone: string): Promise<Array<{ id: number; message: string; sensitive: boolean }>> {
  return app().db.sequelize.query('SELECT id, message, sensitive FROM sms_outbox WHERE to_phone = :phone ORDER BY id DESC', {
    replacements: { phone },
    type: QueryTypes.SELECT
  })
}

/** Waits for the background delivery of a reset request, then reads the newest code sent to the number. */
export async function latestResetCode(phone: string): Promise<string | null> {
  await app().services.recovery.settled()
  for (const m of await outboxFor(phone)) {
    const code = /reset code: (\d{6})/.exec(m.message)?.[1]
    if (code) return code
  }
  return null
}
