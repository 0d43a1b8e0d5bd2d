// Does the time /api/auth/forgot takes tell whether an account exists?
//
//   node_modules/.bin/node bench/forgot-timing.ts [--rounds=20]
//
// Own server process (production build, own embedded database under .data/bench-recovery, ports
// 3200/54370) with SMTP pointed at a local smtp-server, so a real account gets an SMS row and an
// email. Each round asks once for an unknown phone, an unknown email and a real account (each a
// different identifier and client address, interleaved), and prints the medians. Asserts nothing;
// results go in docs/benchmarks-recovery.md by hand.
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import { connect } from '../models/db.ts'
import { hashSecret } from '../server/lib/crypto.ts'
import { ROOT, startChild, stopChild } from './lib.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const ROUNDS = arg('rounds', 20)
const PORT = '3200'
const PG_PORT = '54370'

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (s, _x, cb) => {
    s.resume()
    s.on('end', () => cb())
  }
})
await new Promise<void>((r) => smtp.listen(3201, '127.0.0.1', () => r()))
const server = await startChild(
  'main.ts',
  {
    NODE_ENV: 'production',
    PORT,
    HOST: '127.0.0.1',
    DATA_DIR: path.join(ROOT, '.data/bench-recovery'),
    EMBEDDED_PG_PORT: PG_PORT,
    JOBS_ENABLED: '0',
    LOG_LEVEL: 'error',
    ADMIN_EMAIL: 'bench-recovery@datahub.local',
    ADMIN_PASSWORD: 'bench-recovery-password',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '3201'
  },
  `http://127.0.0.1:${PORT}/readyz`
)
const { sequelize, models } = connect(`postgres://datahub:datahub-local@127.0.0.1:${PG_PORT}/datahub`)
const run = Date.now().toString(36)
const hash = await hashSecret('bench-password')
const real: string[] = []
for (let i = 0; i < ROUNDS + 3; i++) {
  const email = `real-${run}-${i}@bench.local`
  const user = await models.User.create({ email, passwordHash: hash, role: 'AGENT', phone: null, name: `Bench ${i}` })
  await models.Agent.create({
    userId: user.get('id'),
    name: `Bench ${i}`,
    phone: `059${run.slice(-3).replace(/\D/g, '0').padStart(3, '0')}${String(1000 + i).slice(-4)}`,
    approved: true,
    paymentStatus: 'SUCCESS'
  })
  real.push(email)
}

const before = (await sequelize.query('SELECT coalesce(max(id), 0) AS id FROM sms_outbox', { plain: true })) as { id: number }
let ip = 0
async function ask(identifier: string): Promise<number> {
  ip++
  const t = performance.now()
  const res = await fetch(`http://127.0.0.1:${PORT}/api/auth/forgot`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` },
    body: JSON.stringify({ identifier })
  })
  await res.text()
  if (res.status !== 200) throw new Error(`forgot answered ${res.status}`)
  return performance.now() - t
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!

// Warm-up: JIT, pool, limiter statements.
for (let i = 0; i < 3; i++) {
  await ask(`09${run.length}${String(9000000 + i)}`.slice(0, 10))
  await ask(`warm-${run}-${i}@nobody.local`)
  await ask(real[ROUNDS + i]!)
}
const t = { phone: [] as number[], email: [] as number[], real: [] as number[] }
for (let i = 0; i < ROUNDS; i++) {
  const order = [
    () => ask(`027${String(1000000 + ((Date.now() + i) % 9000000)).slice(-7)}`).then((ms) => t.phone.push(ms)),
    () => ask(`ghost-${run}-${i}@nobody.local`).then((ms) => t.email.push(ms)),
    () => ask(real[i]!).then((ms) => t.real.push(ms))
  ]
  // Rotate who goes first, so background work of one kind does not always land on the next kind.
  for (let k = 0; k < 3; k++) await order[(k + i) % 3]!()
}
await new Promise((r) => setTimeout(r, 500))
const sent = await sequelize.query("SELECT count(*) AS n FROM sms_outbox WHERE message LIKE '%reset code%' AND id > :id", {
  replacements: { id: before.id },
  plain: true
})
await sequelize.close()
await stopChild(server)
await new Promise<void>((r) => smtp.close(() => r()))

const m = { phone: median(t.phone), email: median(t.email), real: median(t.real) }
const spread = Math.max(m.phone, m.email, m.real) - Math.min(m.phone, m.email, m.real)
console.log(`POST /api/auth/forgot, ${ROUNDS} requests each, node ${process.version}, ${new Date().toISOString()}`)
console.log(`unknown phone   median ${m.phone.toFixed(2).padStart(7)} ms   p90 ${p90(t.phone).toFixed(2).padStart(7)} ms`)
console.log(`unknown email   median ${m.email.toFixed(2).padStart(7)} ms   p90 ${p90(t.email).toFixed(2).padStart(7)} ms`)
console.log(`real account    median ${m.real.toFixed(2).padStart(7)} ms   p90 ${p90(t.real).toFixed(2).padStart(7)} ms`)
console.log(`largest difference between medians: ${spread.toFixed(2)} ms (the aim is under 20 ms, too little to tell accounts apart over a network)`)
console.log(`reset codes written to the outbox in the run: ${(sent as { n: string }).n} (real accounts asked: ${ROUNDS + 3})`)
