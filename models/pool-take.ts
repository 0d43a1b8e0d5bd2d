import type { Sequelize } from 'sequelize'

/** sequelize-pool's (7.x) own state, as its `_dispense` reads and writes it when it hands out an idle connection. */
interface PoolState<C> {
  _draining: boolean
  _pendingAcquires: unknown[]
  _availableObjects: { resource: C; useCount: number }[]
  _factory: { validate(c: C): boolean }
  _addResourceToInUseObjects(c: C, useCount: number): void
}

const shaped = (p: unknown): p is PoolState<unknown> => {
  const s = p as Partial<PoolState<unknown>> | null
  return (
    !!s &&
    Array.isArray(s._pendingAcquires) &&
    Array.isArray(s._availableObjects) &&
    typeof s._factory?.validate === 'function' &&
    typeof s._addResourceToInUseObjects === 'function'
  )
}

/**
 * An idle connection of Sequelize's pool taken at once, as the pool's own `_dispense` would hand it to an acquire that
 * found one: the same validation, the same bookkeeping (in use until `releaseConnection`). Sequelize's `getConnection`
 * around it costs per statement two hook runs, an acquire timer set and cleared, and the pool's log lines built
 * though nothing logs them: several percent of a webhook-settled order's app time (ADR 0096). Undefined, for the caller
 * to acquire as before, whenever the pool is not in that plain state: no idle connection, another acquire waiting for
 * one (it is served first), the pool draining, pool hooks registered, the server's version not yet known, or a pool
 * of another shape (replication, another sequelize-pool).
 */
export function idleTaker<C>(sequelize: Sequelize): () => C | undefined {
  const manager = sequelize.connectionManager as unknown as { pool: unknown }
  const pool = manager.pool
  if (!shaped(pool)) return () => undefined
  const state = pool as PoolState<C>
  return () => {
    if (
      state._draining ||
      state._pendingAcquires.length > 0 ||
      state._availableObjects.length === 0 ||
      (sequelize as unknown as { options: { databaseVersion?: unknown } }).options.databaseVersion === 0 ||
      sequelize.hasHook('beforePoolAcquire') ||
      sequelize.hasHook('afterPoolAcquire')
    )
      return undefined
    const idle = state._availableObjects[state._availableObjects.length - 1]!
    // A connection the pool would destroy: left to the pool's own acquire, which destroys it and opens another.
    if (!state._factory.validate(idle.resource)) return undefined
    state._availableObjects.pop()
    state._addResourceToInUseObjects(idle.resource, idle.useCount)
    return idle.resource
  }
}
