import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { ConnectionStates } from '../../lib/connection-states.ts'
import { badRequest } from '../../lib/errors.ts'
import { listenForever } from '../../lib/pg-listener.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { fromRow, pickPublic, toRow, type PublicSettings, type Settings } from './fields.ts'
import { createSettingsQueries, SETTINGS_CHANNEL } from './queries.ts'

export { DELIVERY_VENDOR_CHOICES, GATEWAY_CARD, GATEWAY_MOMO, type PublicSettings, type Settings } from './fields.ts'
export { SETTINGS_CHANNEL, SETTINGS_VERSION_SQL } from './queries.ts'

const CACHE_TTL_MS = 5000
const LISTENER = 'datahub-settings-listener'

export type SettingsService = ReturnType<typeof createSettingsService>

export function createSettingsService({
  models,
  audit,
  sequelize,
  connections
}: {
  models: Models
  audit: AuditService
  sequelize?: Sequelize
  connections?: ConnectionStates
}) {
  let cache: Settings | undefined
  let cacheJson = ''
  let loadedAt = 0
  let generation = 0
  let publicCopy: { of: Settings; value: PublicSettings } | undefined
  // The row's version (its xmin: any save writes a new one) and the settings parsed from it: a
  // settlement learns the version from its own UPDATE and skips the read when it is this one.
  let parsed: { version: string; settings: Settings } | undefined
  const queries = createSettingsQueries(models, sequelize)
  // Moves whenever the settings may have changed; caches built from settings (the page cache) key on it.
  let version = 1
  const listeners = new Set<() => void>()
  const changed = () => {
    version++
    for (const fn of listeners) fn()
  }
  const keep = (s: Settings) => {
    const json = JSON.stringify(s)
    if (json !== cacheJson) changed()
    cache = s
    cacheJson = json
    loadedAt = Date.now()
  }

  // Callers inside a transaction pass it: a read on a second connection while every pooled
  // connection is held by such a transaction (a burst of settlements) would wait forever.
  async function load(opts: { transaction?: Transaction } = {}): Promise<Settings> {
    const gen = generation
    const row = await queries.read(opts.transaction)
    const fresh = row && parsed?.version === row.version ? parsed.settings : fromRow(row?.data ?? {})
    if (row) parsed = { version: row.version, settings: fresh }
    // A NOTIFY that arrived while this read was running may describe a newer row: do not keep this one.
    if (gen === generation) keep(fresh)
    return fresh
  }

  // Several app instances share one database: a save on one reaches the others by NOTIFY at once, and
  // a reconnected listener drops the copy for what it may have missed (onGap). So while it listens the
  // copy is kept until told; the TTL is the fallback for while it is down. Re-reading every 5 s anyway
  // put a settings read in front of one order in every 5 s (a round trip before its package read).
  async function get(opts: { transaction?: Transaction } = {}): Promise<Settings> {
    if (cache && (connections?.isUp(LISTENER) || Date.now() - loadedAt < CACHE_TTL_MS)) return cache
    return load(opts)
  }

  function invalidate() {
    generation++
    cache = undefined
    cacheJson = ''
    changed()
  }

  /**
   * Listens for saves made by any instance; returns a stop function. The connection comes back by
   * itself after any outage (with backoff, as long as it takes); while it is gone the 5 s TTL holds.
   */
  async function listen(): Promise<() => Promise<void>> {
    if (!sequelize || !connections) return async () => {}
    const c = sequelize.config
    return listenForever({
      name: LISTENER,
      config: { host: c.host, port: Number(c.port), user: c.username, password: c.password ?? undefined, database: c.database },
      channels: [SETTINGS_CHANNEL],
      onNotify: () => invalidate(),
      // Anything saved while we were not listening is read afresh.
      onGap: () => invalidate(),
      states: connections
    })
  }

  return {
    get,
    /** For money and access decisions (platform open, fees, gateway): always the row as saved now. */
    getFresh: (opts: { transaction?: Transaction } = {}) => load(opts),
    /**
     * Like getFresh, for a caller that read the row's version (`SETTINGS_VERSION_SQL`) in a statement
     * of its own transaction: no read when the version is the one already parsed.
     */
    freshAt: (version: string | null | undefined, opts: { transaction?: Transaction } = {}) =>
      version && parsed?.version === version ? Promise.resolve(parsed.settings) : load(opts),
    /**
     * The saved row's version `s` was parsed from, when it was (null for a copy not read from a row):
     * a statement that writes only while the row is still that version acts on `s` without a read.
     */
    versionOf: (s: Settings): string | null => (parsed?.settings === s ? parsed.version : null),
    listen,
    async getPublic(): Promise<PublicSettings> {
      const s = await get()
      if (publicCopy?.of !== s) publicCopy = { of: s, value: pickPublic(s) }
      return publicCopy.value
    },
    getPublicSync: pickPublic,
    /** A number that moves whenever the settings may have changed (read it after `get()`). */
    version: () => version,
    /** Called whenever the settings may have changed (a save here or elsewhere, a reload that differs, `invalidate`). */
    onChange(fn: () => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    /** Forgets the cached copy (tests, another instance's save, or a caller that just wrote the row itself). */
    invalidate,
    /** Saves a subset of the fields, as PUT /api/settings's schema let it through (server/http/routes/settings/schema.ts). */
    async update(value: Partial<Settings>, ctx: Ctx): Promise<Settings> {
      const before = await load()
      const next = { ...before, ...value } as Settings
      if (next.walletTopupMin > next.walletTopupMax) throw badRequest('Minimum wallet top-up cannot be more than the maximum')
      if (next.shopMaxMarkupType === 'PERCENT' && next.shopMaxMarkupValue > 1000) throw badRequest('Maximum markup in percent must be at most 1000')
      const changed = Object.keys(value).filter((k) => JSON.stringify((before as any)[k]) !== JSON.stringify((next as any)[k]))
      await queries.save(toRow(next), ctx.transaction)
      invalidate()
      await audit.record({ action: 'SETTINGS_UPDATED', resource: 'SETTINGS', resourceId: '1', severity: 'MEDIUM', details: { changed } }, ctx)
      return next
    }
  }
}
