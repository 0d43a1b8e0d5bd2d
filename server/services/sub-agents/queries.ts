import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'

// Every statement of the sub-agents capability, and the typed camelCase rows they return: from here on
// nothing in sub-agents reads a snake_case column or a count as a string.

/** The tier an agent is in, with the first tier standing in for an agent never placed in one. */
const TIER_OF_AGENT = `COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1))`

/**
 * Who may invite (ADR 0041): an active agent that is nobody's sub-agent (one level only), in a tier
 * that allows inviting. The same condition decides the link shown and the link used.
 */
const MAY_INVITE = `${ACTIVE_AGENT_SQL} AND a.parent_agent_id IS NULL
  AND EXISTS (SELECT 1 FROM tiers t WHERE t.id = ${TIER_OF_AGENT} AND t.may_invite)`

/** The parent's standing: may it invite, do its sub-agents wait for its approval rather than an admin's. */
export interface Standing {
  mayInvite: boolean
  parentsApprove: boolean
  inviteCode: string | null
  parentAgentId: number | null
}

/** What decides a sub-agent's status. */
export interface SubAgentState {
  id: number
  approved: boolean
  paymentStatus: string | null
  suspendedByParentAt: Date | null
}

/** A parent's sub-agent with its paid orders and the margin the parent earned on them (pesewas). */
export interface SubAgentListed extends SubAgentState {
  name: string
  phone: string
  createdAt: Date
  sales: number
  amountPesewas: number
  lastOrderAt: Date | null
  earnedPesewas: number
}

/** A sub-agent order an export delivered: its parent and the parent's margin (pesewas). */
export interface ExportedSubAgentOrder {
  id: number
  parentAgentId: number
  parentMarginPesewas: number
}

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

const toState = (r: Raw): SubAgentState => ({
  id: Number(r.id),
  approved: r.approved,
  paymentStatus: r.payment_status,
  suspendedByParentAt: r.suspended_by_parent_at
})

export function createSubAgentQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    /** The agent whose invite code this is, while it may still invite; null otherwise. */
    async inviter(code: string, t?: Transaction): Promise<{ id: number } | null> {
      const [row] = await q(`SELECT a.id FROM agents a WHERE a.invite_code = :code AND ${MAY_INVITE}`, { code }, t)
      return row ? { id: Number(row.id) } : null
    },

    async standing(agentId: number): Promise<Standing | null> {
      const [row] = await q(
        `SELECT (${MAY_INVITE}) AS may_invite, COALESCE(t.parents_approve, false) AS parents_approve, a.invite_code, a.parent_agent_id
         FROM agents a LEFT JOIN tiers t ON t.id = ${TIER_OF_AGENT} WHERE a.id = :agentId`,
        { agentId }
      )
      return row
        ? { mayInvite: row.may_invite, parentsApprove: row.parents_approve, inviteCode: row.invite_code, parentAgentId: numOrNull(row.parent_agent_id) }
        : null
    },

    /** Gives the agent an invite code unless it has one; the code it has now. */
    async keepInviteCode(agentId: number, code: string): Promise<string> {
      const [row] = await q('UPDATE agents SET invite_code = COALESCE(invite_code, :code) WHERE id = :id RETURNING invite_code', { id: agentId, code })
      return row!.invite_code
    },

    /** What the parent saved per package for its sub-agents (pesewas). */
    async savedPrices(parentId: number): Promise<Map<number, number>> {
      const rows = await q('SELECT package_id, price_pesewas FROM sub_agent_prices WHERE parent_agent_id = :parentId', { parentId })
      return new Map(rows.map((r) => [Number(r.package_id), Number(r.price_pesewas)]))
    },

    async subAgentsOf(parentId: number): Promise<SubAgentListed[]> {
      const rows = await q(
        `SELECT a.id, a.name, a.phone, a.approved, a.payment_status, a.suspended_by_parent_at, a.created_at,
              (SELECT count(*) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS sales,
              (SELECT sum(o.amount_pesewas) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS amount,
              (SELECT max(o.created_at) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS last_order_at,
              (SELECT sum(e.amount_pesewas) FROM earnings_entries e JOIN orders o ON o.id = e.order_id
                WHERE e.agent_id = :parentId AND o.agent_id = a.id AND e.type IN ('SUB_AGENT_MARGIN','SUB_AGENT_MARGIN_REVERSAL')) AS earned
         FROM agents a WHERE a.parent_agent_id = :parentId ORDER BY a.created_at DESC, a.id DESC`,
        { parentId }
      )
      return rows.map((r) => ({
        ...toState(r),
        name: r.name,
        phone: r.phone,
        createdAt: r.created_at,
        sales: Number(r.sales),
        amountPesewas: Number(r.amount ?? 0),
        lastOrderAt: r.last_order_at,
        earnedPesewas: Number(r.earned ?? 0)
      }))
    },

    /** The parent's own sub-agent, its row locked until `t` ends; null for anyone else's. */
    async ownSubAgentForUpdate(parentId: number, id: number, t: Transaction): Promise<SubAgentState | null> {
      const [row] = await q(
        'SELECT id, approved, payment_status, suspended_by_parent_at FROM agents WHERE id = :id AND parent_agent_id = :parentId FOR UPDATE',
        { id, parentId },
        t
      )
      return row ? toState(row) : null
    },

    async setSuspended(id: number, suspended: boolean, t: Transaction): Promise<void> {
      await q(`UPDATE agents SET suspended_by_parent_at = ${suspended ? 'now()' : 'NULL'}, updated_at = now() WHERE id = :id RETURNING id`, { id }, t)
    },

    async approve(id: number, t: Transaction): Promise<void> {
      await q('UPDATE agents SET approved = true, approved_at = now(), updated_at = now() WHERE id = :id RETURNING id', { id }, t)
    },

    async exportedSubAgentOrders(stamp: string, t: Transaction): Promise<ExportedSubAgentOrder[]> {
      const rows = await q(
        `SELECT o.id, o.parent_agent_id, o.parent_margin_pesewas FROM order_exports e JOIN orders o ON o.id = e.order_id
          WHERE e.exported_at = :stamp::timestamptz AND o.parent_agent_id IS NOT NULL ORDER BY o.parent_agent_id, o.id`,
        { stamp },
        t
      )
      return rows.map((r) => ({ id: Number(r.id), parentAgentId: Number(r.parent_agent_id), parentMarginPesewas: Number(r.parent_margin_pesewas ?? 0) }))
    },

    /** The parent margin credited on an order: to whom and how much (pesewas); null when none was. */
    async creditedMargin(orderId: number, t: Transaction): Promise<{ agentId: number; amountPesewas: number } | null> {
      const [row] = await q(`SELECT agent_id, amount_pesewas FROM earnings_entries WHERE order_id = :orderId AND type = 'SUB_AGENT_MARGIN'`, { orderId }, t)
      return row ? { agentId: Number(row.agent_id), amountPesewas: Number(row.amount_pesewas) } : null
    },

    /** The agent's parent, or null when it has none. */
    async parentOf(agentId: number): Promise<{ id: number; name: string; phone: string } | null> {
      const [row] = await q('SELECT p.id, p.name, p.phone FROM agents a JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = :id', { id: agentId })
      return row ? { id: Number(row.id), name: row.name, phone: row.phone } : null
    },

    async withParent(agentId: number): Promise<{ id: number; name: string; parentAgentId: number | null; parentName: string | null } | null> {
      const [row] = await q(
        'SELECT a.id, a.name, a.parent_agent_id, p.name AS parent_name FROM agents a LEFT JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = :id',
        { id: agentId }
      )
      return row ? { id: Number(row.id), name: row.name, parentAgentId: numOrNull(row.parent_agent_id), parentName: row.parent_name } : null
    },

    async agentName(top: number): Promise<{ id: number; name: string } | null> {
      const [row] = await q('SELECT id, name FROM agents WHERE id = :top', { top })
      return row ? { id: Number(row.id), name: row.name } : null
    }
  }
}
