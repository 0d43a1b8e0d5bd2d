import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { PayoutStatus } from './model.ts'
import type { PayoutNetwork } from './transfers.ts'

// Every statement of the payouts capability, and the typed camelCase rows they return: from here on
// nothing in payouts reads a snake_case column or a count as a string.

export interface Payout {
  id: number
  agentId: number
  payoutNumberId: number
  amountPesewas: number
  feePesewas: number
  status: PayoutStatus
  reference: string
  provider: string
  transferCode: string | null
  message: string | null
  channel: 'web' | 'ussd' | 'admin'
  sendAttempts: number
  retryOf: number | null
  createdAt: Date
  updatedAt: Date
}

export interface PayoutNumber {
  id: number
  agentId: number
  network: PayoutNetwork
  phone: string
  accountName: string
  resolvedName: string | null
  recipientCode: string
  verifiedAt: Date
}

/** A payout with its number, its agent and the payout that retried it: what the API presents. */
export interface PayoutListed extends Payout {
  network: string
  phone: string
  accountName: string
  resolvedName: string | null
  agentName: string
  agentPhone: string
  retriedBy: number | null
  decisionReason: string | null
}

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

const toPayout = (r: Raw): Payout => ({
  id: Number(r.id),
  agentId: Number(r.agent_id),
  payoutNumberId: Number(r.payout_number_id),
  amountPesewas: Number(r.amount_pesewas),
  feePesewas: Number(r.fee_pesewas),
  status: r.status,
  reference: r.reference,
  provider: r.provider,
  transferCode: r.transfer_code,
  message: r.message,
  channel: r.channel,
  sendAttempts: Number(r.send_attempts),
  retryOf: numOrNull(r.retry_of),
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const toListed = (r: Raw): PayoutListed => ({
  ...toPayout(r),
  network: r.network,
  phone: r.phone,
  accountName: r.account_name,
  resolvedName: r.resolved_name,
  agentName: r.agent_name,
  agentPhone: r.agent_phone,
  retriedBy: numOrNull(r.retried_by),
  decisionReason: r.decision_reason
})

const toNumber = (r: Raw): PayoutNumber => ({
  id: Number(r.id),
  agentId: Number(r.agent_id),
  network: r.network,
  phone: r.phone,
  accountName: r.account_name,
  resolvedName: r.resolved_name,
  recipientCode: r.recipient_code,
  verifiedAt: r.verified_at
})

/** Each payout with its number and its agent, and the payout that retried it. */
const LISTED_SQL = `SELECT p.*, n.network, n.phone, n.account_name, n.resolved_name, a.name AS agent_name, a.phone AS agent_phone,
    (SELECT r.id FROM payouts r WHERE r.retry_of = p.id) AS retried_by
  FROM payouts p JOIN payout_numbers n ON n.id = p.payout_number_id JOIN agents a ON a.id = p.agent_id`

/** The admin tab's filter on `p`: 'SENT' is everything the gateway still owes an answer on. */
function tabWhere(status: string) {
  if (!status) return { where: 'TRUE', params: {} }
  if (status === 'SENT' || status === 'OPEN') return { where: `p.status IN ('QUEUED','SENDING','SENT','UNKNOWN')`, params: {} }
  return { where: 'p.status = :status', params: { status } }
}

export interface NewPayout {
  id: number
  agentId: number
  numberId: number
  amountPesewas: number
  feePesewas: number
  status: PayoutStatus
  reference: string
  provider: string
  channel: Payout['channel']
  retryOf: number | null
  requestedBy: number | null
}

export interface PayoutEnd {
  id: number
  to: PayoutStatus
  from: PayoutStatus[]
  message: string
  transferCode: string | null
  /** Set for an admin's decision (REJECTED): who decided and why. */
  decision?: { by: number | null; reason: string | null }
}

export function createPayoutQueries(sequelize: Sequelize) {
  const q = (sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<Raw>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const one = async <T>(map: (r: Raw) => T, sql: string, replacements: Record<string, unknown>, t?: Transaction): Promise<T | null> => {
    const [r] = await q(sql, replacements, t)
    return r ? map(r) : null
  }

  return {
    nextId: async (t: Transaction) => Number((await q(`SELECT nextval('payouts_id_seq') AS id`, {}, t))[0]!.id),

    insert: async (p: NewPayout, t: Transaction) =>
      (await one(
        toPayout,
        `INSERT INTO payouts (id, agent_id, payout_number_id, amount_pesewas, fee_pesewas, status, reference, provider, channel, retry_of, requested_by)
         VALUES (:id, :agentId, :numberId, :amountPesewas, :feePesewas, :status, :reference, :provider, :channel, :retryOf, :requestedBy) RETURNING *`,
        { ...p },
        t
      ))!,

    byId: (id: number, t?: Transaction) => one(toPayout, 'SELECT * FROM payouts WHERE id = :id', { id }, t),
    lockById: (id: number, t: Transaction) => one(toPayout, 'SELECT * FROM payouts WHERE id = :id FOR UPDATE', { id }, t),
    byReference: (reference: string) => one(toPayout, 'SELECT * FROM payouts WHERE reference = :reference', { reference }),
    retriedAs: async (id: number, t: Transaction) => (await one((r) => Number(r.id), 'SELECT id FROM payouts WHERE retry_of = :id', { id }, t)) ?? null,

    listedById: (id: number, t?: Transaction) => one(toListed, `${LISTED_SQL} WHERE p.id = :id`, { id }, t),
    listedOfAgent: async (agentId: number, limit: number) =>
      (await q(`${LISTED_SQL} WHERE p.agent_id = :agentId ORDER BY p.created_at DESC, p.id DESC LIMIT :limit`, { agentId, limit })).map(toListed),
    listedInTab: async (status: string, limit: number, offset = 0) => {
      const w = tabWhere(status)
      return (await q(`${LISTED_SQL} WHERE ${w.where} ORDER BY p.created_at DESC, p.id DESC LIMIT :limit OFFSET :offset`, { ...w.params, limit, offset })).map(
        toListed
      )
    },
    countInTab: async (status: string) => {
      const w = tabWhere(status)
      return Number((await q(`SELECT count(*) AS n FROM payouts p WHERE ${w.where}`, w.params))[0]!.n)
    },
    countsByStatus: async (): Promise<Record<string, number>> =>
      Object.fromEntries((await q(`SELECT status, count(*) AS n FROM payouts GROUP BY status`, {})).map((r) => [r.status, Number(r.n)])),

    /** Moves a payout into an end state from the states it may leave; null when it was not in one of them. */
    end: (e: PayoutEnd, t: Transaction) =>
      one(
        toPayout,
        `UPDATE payouts SET status = :to, message = :message, updated_at = now(), transfer_code = COALESCE(:code, transfer_code),
           settled_at = CASE WHEN :to IN ('SUCCESS','FAILED','REVERSED') THEN now() ELSE settled_at END
           ${e.decision ? ', decided_by = :by, decided_at = now(), decision_reason = :reason' : ''}
         WHERE id = :id AND status IN (:from) RETURNING *`,
        { id: e.id, to: e.to, from: e.from, message: e.message, code: e.transferCode, by: e.decision?.by ?? null, reason: e.decision?.reason ?? null },
        t
      ),
    markSent: (id: number, message: string, transferCode: string | null) =>
      one(
        toPayout,
        `UPDATE payouts SET status = 'SENT', message = :message, transfer_code = COALESCE(:code, transfer_code), updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING *`,
        { id, message, code: transferCode }
      ),
    claimSend: (id: number) =>
      one(
        toPayout,
        `UPDATE payouts SET status = 'SENDING', send_attempts = send_attempts + 1, updated_at = now() WHERE id = :id AND status = 'QUEUED' RETURNING *`,
        { id }
      ),
    markUnknown: (id: number, message: string) =>
      q(`UPDATE payouts SET status = 'UNKNOWN', message = :message, updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING id`, {
        id,
        message
      }),
    markChecked: (id: number) => q(`UPDATE payouts SET last_checked_at = now() WHERE id = :id RETURNING id`, { id }),
    /** Back to QUEUED for another send under the same reference; false when it left SENDING/UNKNOWN meanwhile. */
    requeue: async (id: number, t: Transaction) =>
      (
        await q(
          `UPDATE payouts SET status = 'QUEUED', message = 'Not at the gateway yet; sending again', updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING id`,
          { id },
          t
        )
      ).length > 0,
    approve: (id: number, by: number | null, t: Transaction) =>
      one(
        toPayout,
        `UPDATE payouts SET status = 'QUEUED', decided_by = :by, decided_at = now(), message = 'Approved; sending', updated_at = now() WHERE id = :id AND status = 'PENDING_APPROVAL' RETURNING *`,
        { id, by },
        t
      ),
    /** Open payouts not moved for `ageSeconds` and not asked about in the last minute, oldest question first. */
    staleOpenIds: async (ageSeconds: number) =>
      (
        await q(
          `SELECT id FROM payouts WHERE status IN ('SENDING','SENT','UNKNOWN') AND updated_at < now() - make_interval(secs => :age)
             AND (last_checked_at IS NULL OR last_checked_at < now() - interval '1 minute') ORDER BY last_checked_at NULLS FIRST, id LIMIT 200`,
          { age: ageSeconds }
        )
      ).map((r) => Number(r.id)),

    numberById: (id: number) => one(toNumber, 'SELECT * FROM payout_numbers WHERE id = :id', { id }),
    activeNumber: (agentId: number, t?: Transaction) =>
      one(toNumber, 'SELECT * FROM payout_numbers WHERE agent_id = :agentId AND removed_at IS NULL', { agentId }, t),
    /** Adds of one agent take turns (see numbers.ts); NO KEY UPDATE leaves rows that merely reference the agent free. */
    lockAgent: (agentId: number, t: Transaction) => q('SELECT 1 FROM agents WHERE id = :agentId FOR NO KEY UPDATE', { agentId }, t),
    removeActiveNumber: (agentId: number, t: Transaction) =>
      one(
        (r) => ({ id: Number(r.id), phone: String(r.phone), network: String(r.network) }),
        'UPDATE payout_numbers SET removed_at = now() WHERE agent_id = :agentId AND removed_at IS NULL RETURNING id, phone, network',
        { agentId },
        t
      ),
    insertNumber: async (
      n: {
        agentId: number
        network: PayoutNetwork
        phone: string
        accountName: string
        resolvedName: string | null
        provider: string
        bankCode: string | null
        recipientCode: string
      },
      t: Transaction
    ) =>
      (await one(
        toNumber,
        `INSERT INTO payout_numbers (agent_id, network, phone, account_name, resolved_name, provider, bank_code, recipient_code)
         VALUES (:agentId, :network, :phone, :accountName, :resolvedName, :provider, :bankCode, :recipientCode) RETURNING *`,
        { ...n },
        t
      ))!
  }
}

export type PayoutQueries = ReturnType<typeof createPayoutQueries>
