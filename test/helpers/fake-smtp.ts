import { SMTPServer } from 'smtp-server'

export interface Mail {
  from: string
  to: string[]
  raw: string
}

export interface Login {
  username: string
  password: string
}

/**
 * A local SMTP server on 127.0.0.1 (the real protocol, through smtp-server) that keeps what it receives,
 * and the credentials of each AUTH (optional: a client without credentials sends all the same).
 */
export async function startFakeSmtp(): Promise<{ port: number; mails: Mail[]; logins: Login[]; stop(): Promise<void> }> {
  const mails: Mail[] = []
  const logins: Login[] = []
  const server = new SMTPServer({
    authOptional: true,
    // No TLS here (127.0.0.1 only), so AUTH has to be offered over the plain connection.
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' })
      callback(null, { user: auth.username })
    },
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
  return { port, mails, logins, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
