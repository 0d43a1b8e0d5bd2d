import type { PackagesService } from '../packages/index.ts'
import type { SettingsService } from '../settings/index.ts'

/** Whose page data an entry holds: one agent's dashboard, or the overview every admin sees alike. */
export type PageDataKey = `agent:${number}` | 'overview'

/**
 * What tells this instance of every instance's writes (the page-changes listener). `caughtUp` resolves
 * once every notice committed before the call has been handed on here, false while the connection is down.
 */
export interface ChangeFeed {
  caughtUp(): Promise<boolean>
}

/**
 * Bounds what no notice follows: the clock (the overview's "today" and last 7 days, an order's age).
 * Every row change an agent's dashboard shows reaches the cache by notice long before.
 */
const MAX_AGE_MS = 60_000
/**
 * The overview is not told of writes to `orders` and `payments` (migration 381): a notice from every
 * customer's order and settlement made their commits wait on PostgreSQL's one notify lock (ADR 0059).
 * So an admin sees a new order or payment at most this late, on every instance; other tables still tell it.
 */
const OVERVIEW_MAX_AGE_MS = 5000
const MAX_ENTRIES = 1000

interface Entry {
  version: string
  at: number
  value: unknown
}

/**
 * Signed-in pages' data kept in memory between loads (ADR 0048): per agent for the dashboard, once for the
 * admin overview. Triggers notify every instance when a row such a page shows changes (migration 340), and
 * before an entry is used the feed is asked to catch up, so a change committed anywhere before a load is seen by it.
 */
export function createPageDataService(deps: {
  settings: Pick<SettingsService, 'version' | 'onChange'>
  packages: Pick<PackagesService, 'version' | 'onChange'>
  /** Milliseconds now: what entries age by (a test moves it instead of waiting). */
  now?: () => number
}) {
  const now = deps.now ?? Date.now
  const maxAge = (key: string) => (key === 'overview' ? OVERVIEW_MAX_AGE_MS : MAX_AGE_MS)
  // Map order is insertion order: a hit moves to the end, the first key is the least recently used.
  const entries = new Map<string, Entry>()
  const filling = new Map<string, Promise<unknown>>()
  // Moves on every drop: a load that began before one may hold what was dropped, so it is answered but not kept.
  let drops = 0
  let feed: ChangeFeed | null = null
  const listeners: ((what: string) => void)[] = []
  const version = () => `${deps.settings.version()}.${deps.packages.version()}`

  function changed(what = 'all'): void {
    drops++
    if (what === 'all') entries.clear()
    else if (what !== 'agents') entries.delete(what)
    else for (const key of entries.keys()) if (key.startsWith('agent:')) entries.delete(key)
    for (const fn of listeners) fn(what)
  }
  deps.settings.onChange(() => changed())
  deps.packages.onChange(() => changed())

  async function fill<T>(key: PageDataKey, v: string, load: () => Promise<T>): Promise<T> {
    const dropsBefore = drops
    const value = await load()
    if (version() === v && drops === dropsBefore) {
      entries.delete(key)
      entries.set(key, { version: v, at: now(), value })
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    }
    return value
  }

  /** The entry kept for `key` while it may still be answered: same versions, within its lifetime. */
  function current(key: string): Entry | undefined {
    const found = entries.get(key)
    return found && found.version === version() && now() - found.at < maxAge(key) ? found : undefined
  }

  /** True when this instance has heard every write committed before the call, so what is kept may be used. */
  const fresh = async () => (feed ? feed.caughtUp() : false)

  return {
    fresh,
    /**
     * `key`'s data, from memory when nothing it shows changed since it was loaded, else `load()`ed (one load
     * per key at a time). Without a live change feed every call loads: another instance's write would go unseen.
     */
    async get<T>(key: PageDataKey, load: () => Promise<T>): Promise<T> {
      if (!(await fresh())) return load()
      const v = version()
      const found = current(key)
      if (found) {
        entries.delete(key)
        entries.set(key, found)
        return found.value as T
      }
      const fillKey = `${v}\n${drops}\n${key}`
      let pending = filling.get(fillKey) as Promise<T> | undefined
      if (!pending) {
        pending = fill(key, v, load).finally(() => filling.delete(fillKey))
        filling.set(fillKey, pending)
      }
      return pending
    },
    /**
     * Whether `key`'s data is kept and still within its lifetime: a page rendered from it is shown no longer
     * than the data itself (the overview's lifetime is shorter than a kept page's).
     */
    isKept(key: string): boolean {
      return current(key) !== undefined
    },
    /** Drops what a notice names: `agent:<id>`, `overview`, `agents` (every agent's) or `all` (the default). */
    changed,
    /** Calls `fn` with what each drop names (`agent:<id>`, `overview`, `agents`, `all`): a page kept elsewhere follows it. */
    onChange(fn: (what: string) => void): void {
      listeners.push(fn)
    },
    /** The feed this instance hears every instance's writes by, or null when it stops (nothing is kept then). */
    follow(next: ChangeFeed | null): void {
      feed = next
      changed()
    }
  }
}

export type PageDataService = ReturnType<typeof createPageDataService>
