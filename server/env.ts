import Joi from 'joi'
import path from 'node:path'

export interface Env {
  NODE_ENV: 'development' | 'production' | 'test'
  PORT: number
  HOST: string
  DATABASE_URL?: string
  DATA_DIR: string
  EMBEDDED_PG_PORT: number
  ADMIN_EMAIL?: string
  ADMIN_PASSWORD?: string
  SESSION_SECRET?: string
  LOG_LEVEL: string
  PAYSTACK_SECRET_KEY?: string
  PAYSTACK_BASE_URL: string
  PAYSTACK_MOMO_MTN: string
  PAYSTACK_MOMO_TELECEL: string
  PAYSTACK_MOMO_AIRTELTIGO: string
  PUBLIC_URL?: string
  /** Domain of the e-mail the shop gives Paystack for visitors paying by phone (momo-<phone>@domain). */
  PAYER_EMAIL_DOMAIN?: string
  /** How long one call to Paystack may take before its outcome counts as unknown. */
  PAYSTACK_TIMEOUT_MS: number
  JOBS_ENABLED: boolean
  USSD_SHARED_SECRET?: string
  USSD_ALLOWED_IPS?: string
  SIMULATOR_PROMPT_TTL_SECONDS: number
  /** Email as a second way for reset codes, only when SMTP_HOST is set (nodemailer). */
  SMTP_HOST?: string
  SMTP_PORT: number
  SMTP_SECURE: boolean
  SMTP_USER?: string
  SMTP_PASS?: string
  SMTP_FROM: string
  /** Express 'trust proxy': a hop count (1 behind one balancer), or addresses/subnets, comma-separated. */
  TRUST_PROXY: string
  /** How long /readyz answers 503 before the listener closes, so the balancer stops sending first. */
  SHUTDOWN_DRAIN_MS: number
  /** Requests still running this long after the listener closed are cut, and the process ends. */
  SHUTDOWN_TIMEOUT_MS: number
  /** /metrics answers a request bearing this token, or from METRICS_ALLOW_IPS; otherwise 404. */
  METRICS_TOKEN?: string
  METRICS_ALLOW_IPS: string
  /** Issue 11: SkyTech GH data vendor (https://skytechgh.com); without keys the delivery simulator is used. */
  SKYTECH_API_KEY?: string
  SKYTECH_API_SECRET?: string
  SKYTECH_BASE_URL: string
  /** First retry wait; each later one doubles. */
  DELIVERY_RETRY_BASE_MS: number
  DELIVERY_VENDOR_TIMEOUT_MS: number
  /** An order QUEUED/PROCESSING untouched this long (its worker died) is put back on the queue. */
  DELIVERY_STALE_SECONDS: number
  /** A batch job takes at most this many orders itself and queues the rest as jobs of the same size (ADR 0026). */
  DELIVERY_BATCH_MAX: number
  /** How long the simulator vendor takes to deliver. */
  DELIVERY_SIMULATOR_DELAY_MS: number
  /** After a vendor accepts without confirming, ask it again after this long. */
  DELIVERY_CHECK_AFTER_MS: number
  /** SMS provider: 'log' (default) or 'arkesel' (default when ARKESEL_API_KEY is set). */
  SMS_PROVIDER?: 'log' | 'arkesel'
  ARKESEL_API_KEY?: string
  ARKESEL_BASE_URL: string
  /** First wait before an SMS is tried again; each later one doubles. */
  SMS_RETRY_BASE_MS: number
  /** 'simulator' on purpose: the only way to run the payment simulator in production on a real database. */
  PAYMENT_PROVIDER?: 'paystack' | 'simulator'
  /** Reseller API (issue 13): requests per minute per API key. */
  API_RATE_LIMIT_PER_MINUTE: number
  /** Agent webhooks may reach loopback and private networks (a local receiver); off in production. */
  WEBHOOKS_ALLOW_PRIVATE: boolean
  /** Payouts (issue 20): how long the transfers simulator takes to complete a transfer. */
  PAYOUT_SIMULATOR_DELAY_MS: number
  /** After a transfer is accepted, ask the gateway about it this long later if no webhook came. */
  PAYOUT_CHECK_AFTER_MS: number
  /** A payout SENDING this long (its worker died mid-call) is verified and, if never sent, sent again. */
  PAYOUT_STALE_SECONDS: number
}

const schema = Joi.object<Env>({
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development'),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  HOST: Joi.string().default('0.0.0.0'),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }).empty(''),
  DATA_DIR: Joi.string().default(path.resolve('.data')),
  EMBEDDED_PG_PORT: Joi.number().integer().min(1024).max(65535).default(54320),
  ADMIN_EMAIL: Joi.string().email({ tlds: false }).lowercase().trim().empty(''),
  ADMIN_PASSWORD: Joi.string().min(8).empty(''),
  SESSION_SECRET: Joi.string().min(32).empty(''),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  PAYSTACK_SECRET_KEY: Joi.string().empty(''),
  PAYSTACK_BASE_URL: Joi.string().uri().default('https://api.paystack.co'),
  PAYSTACK_MOMO_MTN: Joi.string().default('mtn'),
  PAYSTACK_MOMO_TELECEL: Joi.string().default('vod'),
  PAYSTACK_MOMO_AIRTELTIGO: Joi.string().default('atl'),
  PUBLIC_URL: Joi.string().uri().empty(''),
  PAYER_EMAIL_DOMAIN: Joi.string().trim().lowercase().empty(''),
  PAYSTACK_TIMEOUT_MS: Joi.number().integer().min(100).max(120_000).default(15_000),
  JOBS_ENABLED: Joi.boolean().truthy('1').falsy('0').default(true),
  USSD_SHARED_SECRET: Joi.string().empty(''),
  USSD_ALLOWED_IPS: Joi.string().empty(''),
  SIMULATOR_PROMPT_TTL_SECONDS: Joi.number().integer().min(10).default(600),
  SMTP_HOST: Joi.string().hostname().empty(''),
  SMTP_PORT: Joi.number().integer().min(1).max(65535).default(587),
  SMTP_SECURE: Joi.boolean().truthy('1').falsy('0').default(false),
  SMTP_USER: Joi.string().empty(''),
  SMTP_PASS: Joi.string().empty(''),
  SMTP_FROM: Joi.string().default('Data Hub <no-reply@datahub.local>'),
  TRUST_PROXY: Joi.string().trim().pattern(/^(\d+|true|false|[\w.:/,\s]+)$/).default('loopback'),
  SHUTDOWN_DRAIN_MS: Joi.number().integer().min(0).max(60_000).when('NODE_ENV', { is: 'production', then: Joi.number().default(5000), otherwise: Joi.number().default(0) }),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(1000).max(300_000).default(25_000),
  METRICS_TOKEN: Joi.string().min(16).empty(''),
  METRICS_ALLOW_IPS: Joi.string().empty('').default('127.0.0.1,::1'),
  SKYTECH_API_KEY: Joi.string().empty(''),
  SKYTECH_API_SECRET: Joi.string().empty(''),
  SKYTECH_BASE_URL: Joi.string().uri().default('https://skytechgh.com'),
  DELIVERY_RETRY_BASE_MS: Joi.number().integer().min(0).default(5000),
  DELIVERY_VENDOR_TIMEOUT_MS: Joi.number().integer().min(100).default(15000),
  DELIVERY_STALE_SECONDS: Joi.number().integer().min(1).default(120),
  DELIVERY_BATCH_MAX: Joi.number().integer().min(1).max(1000).default(16),
  DELIVERY_SIMULATOR_DELAY_MS: Joi.number().integer().min(0).default(1500),
  DELIVERY_CHECK_AFTER_MS: Joi.number().integer().min(0).default(5000),
  SMS_PROVIDER: Joi.string().valid('log', 'arkesel').empty(''),
  ARKESEL_API_KEY: Joi.string().empty(''),
  ARKESEL_BASE_URL: Joi.string().uri().default('https://sms.arkesel.com'),
  SMS_RETRY_BASE_MS: Joi.number().integer().min(0).default(10000),
  PAYMENT_PROVIDER: Joi.string().lowercase().valid('paystack', 'simulator').empty(''),
  API_RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).max(100000).default(120),
  WEBHOOKS_ALLOW_PRIVATE: Joi.boolean().truthy('1').falsy('0').when('NODE_ENV', { is: 'production', then: Joi.boolean().default(false), otherwise: Joi.boolean().default(true) }),
  PAYOUT_SIMULATOR_DELAY_MS: Joi.number().integer().min(0).max(600_000).default(3000),
  PAYOUT_CHECK_AFTER_MS: Joi.number().integer().min(0).default(60_000),
  PAYOUT_STALE_SECONDS: Joi.number().integer().min(1).default(120),
})
  .unknown(true)

/** Every setting the shop reads (.env.example lists each). */
export const ENV_KEYS = Object.keys(schema.describe().keys ?? {})

/** Reads and checks the environment once at start-up; lists every problem, not just the first. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}, opts: { server?: boolean } = {}): Env {
  const { value, error } = schema.validate(source, { abortEarly: false, convert: true })
  if (error) {
    const lines = error.details.map((d) => `  - ${d.message}`).join('\n')
    throw new Error(`Invalid environment:\n${lines}`)
  }
  const env = { ...value, ...overrides } as Env
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
 * Issue 15: the simulator approves any payment for whoever asks, so a production start on a real
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
