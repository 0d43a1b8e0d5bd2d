import type { Sequelize } from 'sequelize'
import type { ConnectionStates } from '../../lib/connection-states.ts'
import { createOpsQueries } from './queries.ts'

export const APP_POOL = 'app-pool'
const EVERY_MS = 2000

/**
 * The app's own pool (Sequelize) opens a new connection for each query after an outage by itself;
 * this only notices the outage and the return (logged once each, shown in /metrics and /readyz),
 * so an operator sees when the instance lost its database even while no request came in.
 */
export function watchAppPool(sequelize: Sequelize, states: ConnectionStates): () => void {
  const { probe } = createOpsQueries(sequelize)
  states.track(APP_POOL)
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    probe()
      .then(
        () => states.up(APP_POOL),
        (err) => states.down(APP_POOL, err)
      )
      .finally(() => (busy = false))
  }, EVERY_MS)
  timer.unref()
  return () => {
    clearInterval(timer)
    states.forget(APP_POOL)
  }
}
