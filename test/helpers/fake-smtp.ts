import { SMTPServer } from 'smtp-server'

export interface Mail {
  from: string
  to: string[]
  raw: string
}

/** A local SMTP server on 127.0.0.1 (the real protocol, through smtp-server) that keeps what it receives. */
export async function startFakeSmtp(): Promise<{ port: number; mails: Mail[]; stop(): Promise<void> }> {
  const mails: Mail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8')
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as { port: number }).port
  return { port, mails, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
