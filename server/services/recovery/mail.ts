import nodemailer from 'nodemailer'
import type { Env } from '../../env.ts'

export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>
}

/** Email through nodemailer, only when SMTP_HOST is set; otherwise there is no mailer at all. */
export function createMailer(env: Env): Mailer | null {
  if (!env.SMTP_HOST) return null
  const transport = nodemailer.createTransport({
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    secure: env.SMTP_SECURE,
    auth: env.SMTP_USER ? { user: env.SMTP_USER, pass: env.SMTP_PASS ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000
  })
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from: env.SMTP_FROM, to, subject, text })
    }
  }
}
