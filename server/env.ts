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
  /** Reseller API (issue 13): requests per minute per API key. */
  API_RATE_LIMIT_PER_MINUTE: number
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
  API_RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).max(100000).default(120),
})
  .unknown(true)

/** Reads and checks the environment once at start-up; lists every problem, not just the first. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Env> = {}): Env {
  const { value, error } = schema.validate(source, { abortEarly: false, convert: true })
  if (error) {
    const lines = error.details.map((d) => `  - ${d.message}`).join('\n')
    throw new Error(`Invalid environment:\n${lines}`)
  }
  if (value.NODE_ENV === 'production' && value.ADMIN_PASSWORD === undefined && value.ADMIN_EMAIL) {
    // Allowed: a generated password is printed once. Nothing else to check here.
  }
  return { ...value, ...overrides } as Env
}
