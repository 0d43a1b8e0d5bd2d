import { Sequelize } from 'sequelize'
import type { Logger } from 'pino'
import { resolveClusterDir, runningEmbeddedUrl, startEmbedded, type EmbeddedHandle } from './embedded.ts'
import { defineModels, type Models } from './index.ts'

/** Where the database is, as the environment says (models know nothing else of the server's config). */
export interface DatabaseConfig {
  DATABASE_URL?: string
  DATA_DIR: string
  EMBEDDED_PG_PORT: number
  NODE_ENV: string
  /** Connections per instance (10 when absent). */
  DB_POOL_MAX?: number
}

export interface Database {
  sequelize: Sequelize
  models: Models
  url: string
  close(): Promise<void>
}

export function connect(url: string, log?: Logger, opts: { poolMax?: number } = {}): { sequelize: Sequelize; models: Models } {
  const sequelize = new Sequelize(url, {
    dialect: 'postgres',
    logging: log && log.isLevelEnabled('trace') ? (sql: string) => log.trace({ sql }) : false,
    // Connections opened stay open (min = max): one closed when idle would be opened again, a new backend with cold
    // caches, by the next burst. `openPoolConnections` opens them all at start.
    pool: { max: opts.poolMax ?? 10, min: opts.poolMax ?? 10, idle: 10_000 },
    dialectOptions: { application_name: 'datahub' }
  })
  return { sequelize, models: defineModels(sequelize) }
}

/** Where the database is: what `npm run db:where` prints (no password). */
export function databaseLocation(env: DatabaseConfig): string {
  if (env.DATABASE_URL) {
    const u = new URL(env.DATABASE_URL)
    if (u.password) u.password = '***'
    return `external PostgreSQL: ${u.toString()}`
  }
  const dir = resolveClusterDir(env.DATA_DIR, 'pg')
  const running = runningEmbeddedUrl(dir, 'datahub')
  return `embedded PostgreSQL cluster: ${dir} (port ${running ? new URL(running).port : env.EMBEDDED_PG_PORT}, ${running ? 'running' : 'not running'})`
}

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL kept under DATA_DIR. With `attach`
 * (operator commands), a cluster the running shop already serves is used as it is.
 */
export async function openDatabase(env: DatabaseConfig, log: Logger, opts: { attach?: boolean } = {}): Promise<Database> {
  let embedded: EmbeddedHandle | undefined
  let url = env.DATABASE_URL
  if (!url && opts.attach) url = runningEmbeddedUrl(resolveClusterDir(env.DATA_DIR, 'pg', log), 'datahub')
  if (!url) {
    const dir = resolveClusterDir(env.DATA_DIR, 'pg', log)
    log.info({ dir, port: env.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL')
    embedded = await startEmbedded({ dir, port: env.EMBEDDED_PG_PORT, database: 'datahub', log, durable: env.NODE_ENV !== 'test' })
    url = embedded.url
  }
  const { sequelize, models } = connect(url, log, { poolMax: env.DB_POOL_MAX })
  await sequelize.authenticate()
  return {
    sequelize,
    models,
    url,
    async close() {
      await sequelize.close()
      if (embedded) await embedded.stop()
    }
  }
}
