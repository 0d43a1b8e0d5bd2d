// A server-to-server callback's HTTP path alone: the app's CPU per request for a machine's POST that goes through
// every middleware on its way, the body's parse and the caller's proof, and stops there (refused: 401 or 403, no
// statement). What each callback pays on the app's side, without the database's noise. --route picks it:
//   paystack  POST /api/webhooks/paystack, a 1.2 KB charge.success signed with another key (401)
//   whatsapp  POST /api/whatsapp/webhook, a 1 KB message batch with a wrong X-Hub-Signature-256 (401)
//   ussd      POST /ussd/africastalking, an Africa's Talking form hop with a wrong ?secret= (403 END Not allowed.)
//   ussd-dial the same hop with the secret, a first dial from a number with no agent: the menu's reads and its END (200)
//
//   node <checkout>/bench/webhook-path.ts [--route=paystack] [--seconds=8] [--connections=16] [--rounds=3]
//
// Run from the checkout to measure (its main.ts is the app booted: `cd /tmp/base && node /work/x/bench/webhook-path.ts`
// measures the base). The load comes from autocannon in a child process, so the CPU counted (process.cpuUsage of this
// process) is the server's. Own embedded PostgreSQL (BENCH_DATA_DIR, BENCH_PG_PORT), port BENCH_PORT. Prints figures.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const SECONDS = arg('seconds', 8)
const CONNECTIONS = arg('connections', 16)
const ROUNDS = arg('rounds', 3)
const ROUTE = process.argv.find((a) => a.startsWith('--route='))?.split('=')[1] ?? 'paystack'
if (!['paystack', 'whatsapp', 'ussd', 'ussd-dial'].includes(ROUTE)) throw new Error(`--route: paystack, whatsapp, ussd or ussd-dial, not ${ROUTE}`)
const from = (file: string) => import(pathToFileURL(path.resolve(file)).href)
const { loadEnv } = await from('server/env.ts')
const { boot } = await from('main.ts')
const { createLogger } = await from('server/lib/logger.ts')

const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  PORT: process.env.BENCH_PORT ?? '3212',
  HOST: '127.0.0.1',
  DATA_DIR: path.resolve(process.env.BENCH_DATA_DIR ?? '.data/bench-webhook-path'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '54381',
  JOBS_ENABLED: '0',
  LOG_LEVEL: 'error',
  ADMIN_EMAIL: 'bench-webhook@datahub.local',
  ADMIN_PASSWORD: 'bench-webhook-password',
  SESSION_SECRET: 'bench-webhook-session-secret-000000000000',
  PAYSTACK_SECRET_KEY: 'sk_test_bench_webhook_path',
  PAYER_EMAIL_DOMAIN: 'customers.datahub.invalid',
  WHATSAPP_APP_SECRET: 'bench-whatsapp-app-secret',
  USSD_SHARED_SECRET: 'bench-ussd-shared-secret'
})
const running = await boot({ env, log: createLogger('error') })

// A charge.success as Paystack sends it (about 1.2 KB), signed with another key.
const body = JSON.stringify({
  event: 'charge.success',
  data: {
    id: 302961,
    domain: 'live',
    status: 'success',
    reference: 'bench-webhook-path-ref',
    amount: 500,
    message: null,
    gateway_response: 'Approved',
    paid_at: '2026-11-28T06:00:19.000Z',
    created_at: '2026-11-28T06:00:06.000Z',
    channel: 'mobile_money',
    currency: 'GHS',
    ip_address: '41.242.49.37',
    metadata: { orderId: 1 },
    log: {
      time_spent: 16,
      attempts: 1,
      errors: 0,
      success: true,
      mobile: true,
      input: [],
      history: [{ type: 'action', message: 'Attempted to pay', time: 15 }]
    },
    fees: 10,
    customer: { id: 68324, first_name: null, last_name: null, email: 'payer@customers.datahub.invalid', customer_code: 'CUS_qo38as2hpsgk2r0', phone: null },
    authorization: { authorization_code: 'AUTH_f5rnfq9p', bin: '055XXX', last4: 'X123', channel: 'mobile_money', bank: 'MTN', country_code: 'GH', brand: 'MTN' }
  }
})

// A text message as Meta batches it (about 1 KB with its contact and metadata).
const waBody = JSON.stringify({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Ama Mensah' }, wa_id: '233241234567' }],
            messages: [
              { from: '233241234567', id: 'wamid.HBgMMjMzMjQxMjM0NTY3FQIAEhggQjk2RkE3RjQ5OTk4NTE2', timestamp: '1764309619', type: 'text', text: { body: '1' } }
            ]
          }
        }
      ]
    }
  ]
})
// An Africa's Talking hop: the dial's inputs so far joined by '*'.
const ussdBody = new URLSearchParams({
  sessionId: 'ATUid_bench_9d1f6c2b4a7e',
  serviceCode: '*920*44#',
  phoneNumber: '+233241234567',
  networkCode: '62001',
  text: '1*2*1'
}).toString()

const request = {
  paystack: { path: '/api/webhooks/paystack', type: 'application/json', proof: ['x-paystack-signature=00'], body },
  whatsapp: { path: '/api/whatsapp/webhook', type: 'application/json', proof: ['x-hub-signature-256=sha256=00'], body: waBody },
  ussd: { path: '/ussd/africastalking?secret=wrong', type: 'application/x-www-form-urlencoded', proof: [], body: ussdBody },
  'ussd-dial': {
    path: '/ussd/africastalking?secret=bench-ussd-shared-secret',
    type: 'application/x-www-form-urlencoded',
    proof: [],
    body: new URLSearchParams({
      sessionId: 'ATUid_bench_dial',
      serviceCode: '*920*44#',
      phoneNumber: '+233209999999',
      networkCode: '62001',
      text: ''
    }).toString()
  }
}[ROUTE]!
const expected = ROUTE === 'ussd-dial' ? '2xx' : '4xx'

function load(): Promise<{ requests: number; unexpected: number; p50: number; p99: number }> {
  const bin = path.resolve(import.meta.dirname, '../node_modules/.bin/autocannon')
  const args = ['-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-m', 'POST', '-H', `Content-Type=${request.type}`]
  for (const h of request.proof) args.push('-H', h)
  const child = spawn(bin, [...args, '-b', request.body, `http://127.0.0.1:${running.port}${request.path}`], { stdio: ['ignore', 'pipe', 'ignore'] })
  let out = ''
  child.stdout.on('data', (c: Buffer) => (out += c))
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`))
      const r = JSON.parse(out)
      resolve({
        requests: r.requests.total,
        unexpected: ['1xx', '2xx', '3xx', '4xx', '5xx'].reduce((n, k) => n + (k === expected ? 0 : (r[k] ?? 0)), 0),
        p50: r.latency.p50,
        p99: r.latency.p99
      })
    })
  )
}

for (let round = 1; round <= ROUNDS; round++) {
  const cpu0 = process.cpuUsage()
  const r = await load()
  const cpu = process.cpuUsage(cpu0)
  const us = (cpu.user + cpu.system) / r.requests
  console.log(
    `${ROUTE} round ${round}: ${r.requests} requests in ${SECONDS} s (${Math.round(r.requests / SECONDS)}/s), app CPU ${us.toFixed(1)} us per request, ` +
      `latency p50 ${r.p50} ms p99 ${r.p99} ms${r.unexpected ? `, ${r.unexpected} not ${expected}` : ''}`
  )
}
await running.stop()
process.exit(0)
