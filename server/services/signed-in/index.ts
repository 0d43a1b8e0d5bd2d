import type { AuthService } from '../auth/index.ts'
import type { Actor } from '../context.ts'
import type { ChangeFeed } from '../page-data/index.ts'

/** A session row as the store read it: its JSON and the moment its row stops being accepted (`expire`). */
export interface SessionRow {
  json: string
  expiresAt: number
}

/** Bounds memory, not correctness (every change is dropped by notice): the least recently used go first past it. */
const MAX_ENTRIES = 10_000

/**
 * One kind of kept row: by key, each load begun once per key at a time. A drop that arrives while a row loads
 * means the load may hold what was dropped: it is answered, not kept, and later callers load again.
 */
function keptRows<K, V>() {
  const entries = new Map<K, V>()
  const loading = new Map<K, { promise: Promise<V | null>; dropped: boolean }>()
  return {
    hit(key: K): V | undefined {
      const found = entries.get(key)
      if (found === undefined) return undefined
      // Map order is insertion order: a hit moves to the end, the first key is the least recently used.
      entries.delete(key)
      entries.set(key, found)
      return found
    },
    load(key: K, load: () => Promise<V | null>): Promise<V | null> {
      const pending = loading.get(key)
      if (pending && !pending.dropped) return pending.promise
      const state = { promise: load(), dropped: false }
      loading.set(key, state)
      state.promise.then(
        (value) => {
          if (loading.get(key) === state) loading.delete(key)
          if (value === null || state.dropped) return
          entries.delete(key)
          entries.set(key, value)
          if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
        },
        () => loading.get(key) === state && loading.delete(key)
      )
      return state.promise
    },
    drop(key?: K): void {
      if (key === undefined) entries.clear()
      else entries.delete(key)
      for (const [k, state] of loading) if (key === undefined || k === key) state.dropped = true
    }
  }
}

/**
 * The signed-in session and its user, kept in memory between loads on this instance (ADR 0048, amendment), so a
 * load that changes nothing reads neither. Triggers notify every instance at commit when a session row changes or
 * goes (sign-out, a touch, sessions ended, expiry swept) and when a user or their agent row changes (migration 345);
 * before a kept row is used, the request's catch-up on the listener's connection has handed on every notice
 * committed before it. Without a live feed nothing is kept: every load reads the database.
 */
export function createSignedInService(deps: { auth: Pick<AuthService, 'loadActor'> }) {
  const sessions = keptRows<string, SessionRow>()
  const actors = keptRows<number, Actor>()
  let feed: ChangeFeed | null = null

  function changed(what = 'all'): void {
    if (what.startsWith('session:')) sessions.drop(what.slice('session:'.length))
    else if (what.startsWith('user:')) actors.drop(Number(what.slice('user:'.length)))
    else {
      sessions.drop()
      actors.drop()
    }
  }

  /** True when this instance has heard every write committed before the call, so what is kept may be used. */
  const fresh = async () => (feed ? feed.caughtUp() : false)

  return {
    fresh,
    /**
     * The session row `sid` names while it is unexpired: from memory when this instance has caught up (`caughtUp`,
     * begun when the request arrived) and nothing changed it since it was read, else `load()`ed. An expired row
     * is never answered from memory.
     */
    async session(sid: string, caughtUp: Promise<boolean> | null, load: () => Promise<SessionRow | null>): Promise<SessionRow | null> {
      if (!(await (caughtUp ?? fresh()))) return load()
      const kept = sessions.hit(sid)
      if (kept && Date.now() < kept.expiresAt) return kept
      if (kept) sessions.drop(sid)
      const row = await sessions.load(sid, load)
      return row && Date.now() < row.expiresAt ? row : null
    },
    /** The user `userId` as `auth.loadActor` reads them, kept like a session (a copy per call: callers may add to it). */
    async actor(userId: number, caughtUp: Promise<boolean> | null): Promise<Actor | null> {
      const load = () => deps.auth.loadActor(userId)
      if (!(await (caughtUp ?? fresh()))) return load()
      const actor = actors.hit(userId) ?? (await actors.load(userId, load))
      return actor && { ...actor, agent: actor.agent && { ...actor.agent } }
    },
    /** Drops what a notice names: `session:<sid>`, `user:<id>`, or everything (`all`, the default). */
    changed,
    /** The feed this instance hears every instance's writes by, or null when it stops (nothing is kept then). */
    follow(next: ChangeFeed | null): void {
      feed = next
      changed()
    }
  }
}

export type SignedInService = ReturnType<typeof createSignedInService>
