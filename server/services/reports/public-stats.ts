import type { Sequelize } from 'sequelize'
import { createReportQueries } from './queries.ts'

/** Below these the home page makes no claim: a rate of 2 out of 2 says nothing. */
export const MIN_CUSTOMERS = 100
export const MIN_FINISHED_DELIVERIES = 100
/** The figures change slowly and the home page is every visitor's first request. */
const TTL_MS = 10 * 60_000

export interface TrustFigures {
  /** '1,200+' style: distinct numbers that paid for a bundle, rounded down; null when too few. */
  customers: string | null
  /** '99.4%' style: paid orders delivered among those whose delivery finished, rounded down; null when too few. */
  successRate: string | null
}

/** 1,234 -> 1,200 and 15,678 -> 15,000: never more than is true, and a plain round figure. */
export function roundDownFigure(n: number): number {
  if (n < 10_000) return Math.floor(n / 100) * 100
  return Math.floor(n / 1000) * 1000
}

/** The home page's trust claims (spec: users and success rate), computed from the orders. */
export function createPublicStatsService(deps: { sequelize: Sequelize }) {
  const queries = createReportQueries(deps.sequelize)
  let cached: { at: number; figures: TrustFigures } | null = null

  async function compute(): Promise<TrustFigures> {
    const { customers, delivered, failed } = await queries.trustCounts()
    const finished = delivered + failed
    return {
      customers: customers >= MIN_CUSTOMERS ? `${roundDownFigure(customers).toLocaleString('en-GH')}+` : null,
      successRate: finished >= MIN_FINISHED_DELIVERIES ? `${(Math.floor((delivered / finished) * 1000) / 10).toFixed(1)}%` : null
    }
  }

  return {
    async trustFigures(): Promise<TrustFigures> {
      if (cached && Date.now() - cached.at < TTL_MS) return cached.figures
      const figures = await compute()
      cached = { at: Date.now(), figures }
      return figures
    },
    /** Tests and an operator see a new figure at once. */
    forget() {
      cached = null
    }
  }
}

export type PublicStatsService = ReturnType<typeof createPublicStatsService>
