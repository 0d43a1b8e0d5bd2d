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
  JOBS_ENABLED: boolean
  USSD_SHARED_SECRET?: string
  USSD_ALLOWED_IPS?: string
  SIMULATOR_PROMPT_TTL_SECONDS: number
  /** 'simulator' on purpose: the only way to run the payment simulator in production on a real database. */
  PAYMENT_PROVIDER?: 'paystack' | 'simulator'
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
  JOBS_ENABLED: Joi.boolean().truthy('1').falsy('0').default(true),
  USSD_SHARED_SECRET: Joi.string().empty(''),
  USSD_ALLOWED_IPS: Joi.string().empty(''),
  SIMULATOR_PROMPT_TTL_SECONDS: Joi.number().integer().min(10).default(600),
  PAYMENT_PROVIDER: Joi.string().lowercase().valid('paystack', 'simulator').empty(''),
})
  .unknown(true)

/** Reads and checks the environment once at start-up; lists every problem, not just the first. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}): Env {
  const { value, error } = schema.validate(source, { abortEarly: false, convert: true })
  if (error) {
    const lines = error.details.map((d) => `  - ${d.message}`).join('\n')
    throw new Error(`Invalid environment:\n${lines}`)
  }
  const env = { ...value, ...overrides } as Env
  const refusal = paymentModeRefusal(env)
  if (refusal) throw new Error(`Invalid environment:\n  - ${refusal}`)
  return env
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
