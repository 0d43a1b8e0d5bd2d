import Joi from 'joi'
import path from 'node:path'

/** A setting the shop always has after validation (it has a default), or may lack (no default). */
interface Setting<T, Optional extends boolean> {
  schema: Joi.Schema
  optional: Optional
  /** Carries the value's type only. */
  type?: T
}
const always = <T>(schema: Joi.Schema<T>): Setting<T, false> => ({ schema, optional: false })
const maybe = <T>(schema: Joi.Schema<T>): Setting<T, true> => ({ schema, optional: true })
const oneOf = <T extends string>(values: readonly T[], base = Joi.string()) => base.valid(...values) as unknown as Joi.Schema<T>
const flag = () => Joi.boolean().truthy('1').falsy('0')

// Every variable the shop reads, once: the checks below and the Env type both come from this table.
const SETTINGS = {
  NODE_ENV: always(oneOf(['development', 'production', 'test'] as const).default('development')),
  PORT: always(Joi.number().integer().min(0).max(65535).default(3000)),
  HOST: always(Joi.string().default('0.0.0.0')),
  DATABASE_URL: maybe(
    Joi.string()
      .uri({ scheme: ['postgres', 'postgresql'] })
      .empty('')
  ),
  DATA_DIR: always(Joi.string().default(path.resolve('.data'))),
  EMBEDDED_PG_PORT: always(Joi.number().integer().min(1024).max(65535).default(54320)),
  /** Sequelize's connections per instance. */
  DB_POOL_MAX: always(Joi.number().integer().min(1).max(1000).default(10)),
  ADMIN_EMAIL: maybe(Joi.string().email({ tlds: false }).lowercase().trim().empty('')),
  ADMIN_PASSWORD: maybe(Joi.string().min(8).empty('')),
  /** admin:create / admin:reset-password use it instead of generating a password. */
  DATAHUB_PASSWORD: maybe(Joi.string().empty('')),
  SESSION_SECRET: maybe(Joi.string().min(32).empty('')),
  LOG_LEVEL: always(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const).default('info')),
  PAYSTACK_SECRET_KEY: maybe(Joi.string().empty('')),
  PAYSTACK_BASE_URL: always(Joi.string().uri().default('https://api.paystack.co')),
  PAYSTACK_MOMO_MTN: always(Joi.string().default('mtn')),
  PAYSTACK_MOMO_TELECEL: always(Joi.string().default('vod')),
  PAYSTACK_MOMO_AIRTELTIGO: always(Joi.string().default('atl')),
  PUBLIC_URL: maybe(Joi.string().uri().empty('')),
  /** Domain of the e-mail the shop gives Paystack for visitors paying by phone (momo-<phone>@domain). */
  PAYER_EMAIL_DOMAIN: maybe(Joi.string().trim().lowercase().empty('')),
  /** How long one call to Paystack may take before its outcome counts as unknown. */
  PAYSTACK_TIMEOUT_MS: always(Joi.number().integer().min(100).max(120_000).default(15_000)),
  JOBS_ENABLED: always(flag().default(true)),
  /** Jobs one instance runs at once. */
  QUEUE_CONCURRENCY: always(Joi.number().integer().min(1).max(200).default(8)),
  /** The queue's own database connections per instance; absent: concurrency + 2. */
  QUEUE_POOL_MAX: maybe(Joi.number().integer().min(2).max(1000).empty('')),
  /** graphile-worker's completion batching: 0 (default) one statement per tick, -1 off (ADR 0024). */
  QUEUE_COMPLETE_BATCH_MS: always(Joi.number().integer().min(-1).max(10_000).default(0)),
  /** Jobs fetched and locked at once; 0 or 1 (default) is off. */
  QUEUE_LOCAL_SIZE: always(Joi.number().integer().min(0).max(1000).default(0)),
  USSD_SHARED_SECRET: maybe(Joi.string().empty('')),
  USSD_ALLOWED_IPS: maybe(Joi.string().empty('')),
  SIMULATOR_PROMPT_TTL_SECONDS: always(Joi.number().integer().min(10).default(600)),
  /** Email as a second way for reset codes, only when SMTP_HOST is set (nodemailer). */
  SMTP_HOST: maybe(Joi.string().hostname().empty('')),
  SMTP_PORT: always(Joi.number().integer().min(1).max(65535).default(587)),
  SMTP_SECURE: always(flag().default(false)),
  SMTP_USER: maybe(Joi.string().empty('')),
  SMTP_PASS: maybe(Joi.string().empty('')),
  SMTP_FROM: always(Joi.string().default('Data Hub <no-reply@datahub.local>')),
  /** Express 'trust proxy': a hop count (1 behind one balancer), or addresses/subnets, comma-separated. */
  TRUST_PROXY: always(
    Joi.string()
      .trim()
      .pattern(/^(\d+|true|false|[\w.:/,\s]+)$/)
      .default('loopback')
  ),
  /** How long /readyz answers 503 before the listener closes, so the balancer stops sending first. */
  SHUTDOWN_DRAIN_MS: always(
    Joi.number()
      .integer()
      .min(0)
      .max(60_000)
      .when('NODE_ENV', { is: 'production', then: Joi.number().default(5000), otherwise: Joi.number().default(0) })
  ),
  /** Requests still running this long after the listener closed are cut, and the process ends. */
  SHUTDOWN_TIMEOUT_MS: always(Joi.number().integer().min(1000).max(300_000).default(25_000)),
  /** /metrics answers a request bearing this token, or from METRICS_ALLOW_IPS; otherwise 404. */
  METRICS_TOKEN: maybe(Joi.string().min(16).empty('')),
  METRICS_ALLOW_IPS: always(Joi.string().empty('').default('127.0.0.1,::1')),
  /** SkyTech GH data vendor (https://skytechgh.com); without keys the delivery simulator is used. */
  SKYTECH_API_KEY: maybe(Joi.string().empty('')),
  SKYTECH_API_SECRET: maybe(Joi.string().empty('')),
  SKYTECH_BASE_URL: always(Joi.string().uri().default('https://skytechgh.com')),
  /** First retry wait; each later one doubles. */
  DELIVERY_RETRY_BASE_MS: always(Joi.number().integer().min(0).default(5000)),
  DELIVERY_VENDOR_TIMEOUT_MS: always(Joi.number().integer().min(100).default(15000)),
  /** An order QUEUED/PROCESSING untouched this long (its worker died) is put back on the queue. */
  DELIVERY_STALE_SECONDS: always(Joi.number().integer().min(1).default(120)),
  /**
   * A pump's claim takes at most this many paid orders; a batch job takes as many itself and queues the rest as jobs
   * of the same size (ADR 0026). 32 so that at 400 paid orders a second a claim's fixed statements serve 32 orders (ADR 0084).
   */
  DELIVERY_BATCH_MAX: always(Joi.number().integer().min(1).max(1000).default(32)),
  /** The delivery pumps' claims of one instance start at least this far apart while paid orders keep coming (0: at each wake; ADR 0070, 0084). */
  DELIVERY_GATHER_MS: always(Joi.number().integer().min(0).max(1000).default(100)),
  /** How long the simulator vendor takes to deliver. */
  DELIVERY_SIMULATOR_DELAY_MS: always(Joi.number().integer().min(0).default(1500)),
  /** After a vendor accepts without confirming, ask it again after this long. */
  DELIVERY_CHECK_AFTER_MS: always(Joi.number().integer().min(0).default(5000)),
  /** SMS provider: 'log' (default) or 'arkesel' (default when ARKESEL_API_KEY is set). */
  SMS_PROVIDER: maybe(oneOf(['log', 'arkesel'] as const).empty('')),
  ARKESEL_API_KEY: maybe(Joi.string().empty('')),
  ARKESEL_BASE_URL: always(Joi.string().uri().default('https://sms.arkesel.com')),
  /** WhatsApp Cloud API (docs/whatsapp.md): without an access token the built-in simulator plays Meta. */
  WHATSAPP_GRAPH_URL: always(Joi.string().uri().default('https://graph.facebook.com')),
  WHATSAPP_API_VERSION: always(
    Joi.string()
      .pattern(/^v\d+\.\d+$/)
      .default('v21.0')
  ),
  WHATSAPP_PHONE_NUMBER_ID: maybe(
    Joi.string()
      .pattern(/^\d{1,30}$/)
      .empty('')
  ),
  WHATSAPP_ACCESS_TOKEN: maybe(Joi.string().empty('')),
  /** The Meta app's secret: every webhook POST is signed with it (X-Hub-Signature-256). */
  WHATSAPP_APP_SECRET: maybe(Joi.string().empty('')),
  /** Echoed back to Meta's GET verification of the webhook URL. */
  WHATSAPP_VERIFY_TOKEN: maybe(Joi.string().empty('')),
  /** An approved message template with one body variable, for receipts outside the 24-hour window. */
  WHATSAPP_TEMPLATE_NAME: always(
    Joi.string()
      .pattern(/^[a-z0-9_]{1,512}$/)
      .default('order_update')
  ),
  WHATSAPP_TEMPLATE_LANGUAGE: always(
    Joi.string()
      .pattern(/^[a-z]{2,3}(_[A-Z]{2})?$/)
      .default('en')
  ),
  /** First wait before an SMS is tried again; each later one doubles. */
  SMS_RETRY_BASE_MS: always(Joi.number().integer().min(0).default(10000)),
  /** 'simulator' on purpose: the only way to run the payment simulator in production on a real database. */
  PAYMENT_PROVIDER: maybe(oneOf(['paystack', 'simulator'] as const, Joi.string().lowercase()).empty('')),
  /** Reseller API: requests per minute per API key. */
  API_RATE_LIMIT_PER_MINUTE: always(Joi.number().integer().min(1).max(100000).default(120)),
  /** Agent webhooks may reach loopback and private networks (a local receiver); off in production. */
  WEBHOOKS_ALLOW_PRIVATE: always(flag().when('NODE_ENV', { is: 'production', then: Joi.boolean().default(false), otherwise: Joi.boolean().default(true) })),
  /** How long the transfers simulator takes to complete a transfer. */
  PAYOUT_SIMULATOR_DELAY_MS: always(Joi.number().integer().min(0).max(600_000).default(3000)),
  /** After a transfer is accepted, ask the gateway about it this long later if no webhook came. */
  PAYOUT_CHECK_AFTER_MS: always(Joi.number().integer().min(0).default(60_000)),
  /** A payout SENDING this long (its worker died mid-call) is verified and, if never sent, sent again. */
  PAYOUT_STALE_SECONDS: always(Joi.number().integer().min(1).default(120)),
  /** Seals result-checker PINs (AES-256-GCM): 32 bytes as 64 hex digits or base64; required in production once a card exists. */
  VOUCHER_ENCRYPTION_KEY: maybe(
    Joi.string()
      .trim()
      .empty('')
      .custom((v: string, h) => (keyBytesOf(v) ? v : h.error('any.invalid')))
      .messages({ 'any.invalid': 'VOUCHER_ENCRYPTION_KEY must be 32 bytes: 64 hex digits or base64' })
  )
}

/** The 32 key bytes of VOUCHER_ENCRYPTION_KEY (hex or base64), or null when it is neither. */
export function keyBytesOf(text: string): Buffer | null {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex')
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const b = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    if (b.length === 32) return b
  }
  return null
}

type Settings = typeof SETTINGS
type ValueOf<S> = S extends Setting<infer T, boolean> ? T : never
/** The checked environment, typed from SETTINGS (one declaration, no second list to keep in step). */
export type Env = { [K in keyof Settings as Settings[K]['optional'] extends true ? never : K]: ValueOf<Settings[K]> } & {
  [K in keyof Settings as Settings[K]['optional'] extends true ? K : never]?: ValueOf<Settings[K]>
}

const schema = Joi.object<Env>(Object.fromEntries(Object.entries(SETTINGS).map(([k, s]) => [k, s.schema]))).unknown(true)

/** Every setting the shop reads (.env.example lists each). */
export const ENV_KEYS = Object.keys(SETTINGS)

/** Reads and checks the environment once at start-up; lists every problem, not just the first. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}, opts: { server?: boolean } = {}): Env {
  const { value, error } = schema.validate(source, { abortEarly: false, convert: true })
  if (error) {
    const lines = error.details.map((d) => `  - ${d.message}`).join('\n')
    throw new Error(`Invalid environment:\n${lines}`)
  }
  const env: Env = { ...value, ...overrides }
  const problems: string[] = []
  const server = opts.server ?? true
  // Every instance must sign cookies with the same secret, so it is set by the operator, never
  // generated per machine (npm start on a single machine fills it from DATA_DIR before this check).
  // Operator commands (opts.server false) sign nothing, take no payments and need neither check.
  if (server && env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    problems.push('SESSION_SECRET is required in production (at least 32 characters, the same on every instance)')
  }
  if (env.NODE_ENV === 'production' && env.PAYSTACK_SECRET_KEY) {
    // Paystack refuses a charge without a real e-mail: a shop that would fail every visitor's charge does not start.
    const problem = payerEmailDomainProblem(env.PAYER_EMAIL_DOMAIN)
    if (problem) problems.push(`PAYER_EMAIL_DOMAIN ${problem}`)
  }
  const refusal = server ? paymentModeRefusal(env) : null
  if (refusal) problems.push(refusal)
  if (problems.length) throw new Error(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  return env
}

/** TRUST_PROXY as Express's 'trust proxy' setting wants it. */
export function trustProxySetting(v: string): number | boolean | string {
  if (/^\d+$/.test(v)) return Number(v)
  if (v === 'true' || v === 'false') return v === 'true'
  return v
}

const DOMAIN_RE = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/** Why a value cannot be the payer e-mail domain (null when it can): a DNS name with a letter TLD, not an IP or localhost. */
export function payerEmailDomainProblem(domain: string | undefined): string | null {
  if (!domain) return 'is required in production with Paystack (e.g. customers.example.com): visitors paying by phone need a valid e-mail for Paystack'
  if (!DOMAIN_RE.test(domain)) return `must be a domain name such as customers.example.com, not "${domain}"`
  return null
}

/**
 * The simulator approves any payment for whoever asks, so a production start on a real
 * database (DATABASE_URL) must have a gateway, or say PAYMENT_PROVIDER=simulator on purpose.
 * The embedded-database demo (`npm start` on a fresh machine) keeps the simulator.
 */
export function paymentModeRefusal(env: Pick<Env, 'NODE_ENV' | 'DATABASE_URL' | 'PAYSTACK_SECRET_KEY' | 'PAYMENT_PROVIDER'>): string | null {
  if (env.PAYMENT_PROVIDER === 'paystack' && !env.PAYSTACK_SECRET_KEY) return 'PAYMENT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY'
  if (env.NODE_ENV !== 'production' || !env.DATABASE_URL) return null
  if (env.PAYSTACK_SECRET_KEY || env.PAYMENT_PROVIDER === 'simulator') return null
  return (
    'No payment gateway is configured (PAYSTACK_SECRET_KEY) for a production database: refusing to start, ' +
    'because the payment simulator would hand out data for free. Set PAYSTACK_SECRET_KEY, or PAYMENT_PROVIDER=simulator for a demo on purpose.'
  )
}
