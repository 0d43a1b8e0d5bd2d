import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { type ApiOrderRow, toApiOrderRow } from './queries-orders.ts'

// The agents' webhooks' statements (their URL and signing secret on the agent's row, and the orders
// they report), and the typed camelCase rows they return.

/** An order an agent's webhook reports, with the URL it goes to. */
export interface HookedOrder extends ApiOrderRow {
  agentId: number
  webhookUrl: string | null
}

type Raw = Record<string, any>
const toHooked = (r: Raw): HookedOrder => ({ ...toApiOrderRow(r), agentId: r.agent_id, webhookUrl: r.webhook_url })

export function createWebhookQueries(sequelize: Sequelize) {
  const q = (sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<Raw>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  // Read in the transaction of every agent's order that settles (a wallet order's included): by name (ADR 0024).
  const run = preparedFor(sequelize)

  return {
    async settings(agentId: number): Promise<{ url: string | null; hasSecret: boolean } | null> {
      const [row] = await q('SELECT webhook_url, webhook_secret IS NOT NULL AS has_secret FROM agents WHERE id = :id', { id: agentId })
      return row ? { url: row.webhook_url, hasSecret: row.has_secret } : null
    },

    /** Sets the URL, and the secret when none exists and a URL is set; `made` says whether this call stored `secret`. */
    async setUrl(agentId: number, url: string | null, secret: string, t: Transaction): Promise<{ url: string | null; made: boolean; hasSecret: boolean }> {
      const [row] = await q(
        `UPDATE agents SET webhook_url = :url, webhook_secret = COALESCE(webhook_secret, CASE WHEN :url::text IS NOT NULL THEN :secret END), updated_at = now()
           WHERE id = :id RETURNING webhook_url, webhook_secret IS NOT DISTINCT FROM :secret AS made, webhook_secret IS NOT NULL AS has_secret`,
        { id: agentId, url, secret },
        t
      )
      return { url: row!.webhook_url, made: row!.made, hasSecret: row!.has_secret }
    },

    /** Replaces the secret; the agent's URL, or undefined when there is no such agent. */
    async setSecret(agentId: number, secret: string, t: Transaction): Promise<{ url: string | null } | undefined> {
      const [row] = await q('UPDATE agents SET webhook_secret = :secret, updated_at = now() WHERE id = :id RETURNING webhook_url', { id: agentId, secret }, t)
      return row ? { url: row.webhook_url } : undefined
    },

    /** The order with its agent's webhook URL (null without one), or null when the order has no agent. */
    async hookedOrder(orderId: number, transaction?: Transaction): Promise<HookedOrder | null> {
      const [row] = await run<Raw>('SELECT o.*, a.webhook_url FROM orders_view o JOIN agents a ON a.id = o.agent_id WHERE o.id = $1', [orderId], transaction)
      return row ? toHooked(row) : null
    },

    /** Those of the orders whose agent has a webhook URL, by id. */
    async hookedOrders(orderIds: number[], transaction?: Transaction): Promise<HookedOrder[]> {
      const rows = await q(
        `SELECT o.*, a.webhook_url FROM orders_view o JOIN agents a ON a.id = o.agent_id WHERE o.id IN (:ids) AND a.webhook_url IS NOT NULL ORDER BY o.id`,
        { ids: orderIds },
        transaction
      )
      return rows.map(toHooked)
    },

    async url(agentId: number, transaction?: Transaction): Promise<string | null> {
      const [row] = await q('SELECT webhook_url FROM agents WHERE id = :id', { id: agentId }, transaction)
      return row?.webhook_url ?? null
    },

    async urlAndSecret(agentId: number): Promise<{ url: string | null; secret: string | null } | null> {
      const [row] = await q('SELECT webhook_url, webhook_secret FROM agents WHERE id = :id', { id: agentId })
      return row ? { url: row.webhook_url, secret: row.webhook_secret } : null
    }
  }
}
