import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { formatCedis, ghsText, pesewasFixed, toGhs, toPesewas, type Pesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import { INSUFFICIENT_EARNINGS } from '../earnings/ledger.ts'
import type { Attention } from '../payments/attention.ts'
import type { PaystackEvent } from '../payments/paystack.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createPaystackTransfers } from './paystack.ts'
import { createSimulatorTransfers, type SimulatorTransfers } from './simulator.ts'
import { createPayoutNumbers } from './numbers.ts'
import { listWhere, presentPayout, VIEW_SQL } from './view.ts'
import type { TransferWord, TransfersProvider } from './transfers.ts'
import {
  PAYOUT_SEND_TASK,
  PAYOUT_CHECK_TASK,
  OPEN,
  RETURNS,
  amountSchema,
  amountPesewasSchema,
  reasonSchema,
  listSchema,
  simulatorSchema,
  validate,
  referenceFor,
  type PayoutStatus,
  type PayoutRow,
  type PayoutNumberRow,
  type PayoutView
} from './model.ts'

export { PAYOUT_SEND_TASK, PAYOUT_CHECK_TASK, PAYOUT_SWEEP_TASK, type PayoutStatus, type PayoutRow, type PayoutNumberRow, type PayoutView } from './model.ts'

export interface PayoutsDeps {
  sequelize: Sequelize
  env: Env
  log: Logger
  audit: AuditService
  settings: SettingsService
  earnings: EarningsService
  queue: Queue
  attention: Attention
  /** Tests may hand in a provider; otherwise Paystack when its key is set, else the simulator. */
  transfers?: TransfersProvider
}

/**
 * Payouts of shop earnings to the agent's verified mobile-money number (ADR 0020 '## Payouts').
 * The money is held (PAYOUT entry) in the transaction that creates the payout and queues its send; the
 * transfer goes out from a queued job under an id-derived reference; only the gateway's word (webhook or
 * verify) settles it; failure, reversal or rejection returns it (PAYOUT_RETURN) once. Every move is one
 * transaction with its audit entry.
 */
export function createPayoutsService(deps: PayoutsDeps) {
  const { sequelize, audit, queue, attention, log, env } = deps
  const sim: SimulatorTransfers | null =
    deps.transfers || (env.PAYSTACK_SECRET_KEY && env.PAYMENT_PROVIDER !== 'simulator')
      ? null
      : createSimulatorTransfers({ delayMs: env.PAYOUT_SIMULATOR_DELAY_MS })
  const transfers: TransfersProvider = deps.transfers ?? sim?.provider ?? createPaystackTransfers(env)
  const numbers = createPayoutNumbers({ sequelize, audit, transfers, log })
  const activeNumber = numbers.active
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const num = (r: any): PayoutRow => ({
    ...r,
    id: Number(r.id),
    amount_pesewas: Number(r.amount_pesewas),
    fee_pesewas: Number(r.fee_pesewas),
    retry_of: r.retry_of == null ? null : Number(r.retry_of)
  })
  /** How long to wait before asking the gateway about a sent transfer (the webhook usually comes first). */
  const checkAfterMs = () => (sim ? sim.state().delayMs + 250 : env.PAYOUT_CHECK_AFTER_MS)
  /** The longer a transfer stays open, the less often it is asked about (at most every 30 minutes; the minute sweep also catches it). */
  const nextCheckMs = (p: PayoutRow) => Math.max(checkAfterMs(), Math.min(Date.now() - new Date(p.created_at).getTime(), 30 * 60_000))

  async function payoutSettings(t?: Transaction) {
    const s = await deps.settings.getFresh({ transaction: t })
    return { minimum: s.payoutMinimum, fee: s.payoutFee, approvalAbove: s.payoutApprovalAbove }
  }

  async function view(id: number, t?: Transaction): Promise<PayoutView> {
    const [r] = await q<any>(`${VIEW_SQL} WHERE p.id = :id`, { id }, t)
    if (!r) throw notFound('Payout not found')
    return presentPayout(r)
  }

  const scheduleCheck = (id: number, afterMs: number, t?: Transaction) =>
    queue.enqueue(PAYOUT_CHECK_TASK, { payoutId: id }, { transaction: t, jobKey: `payout-check-${id}`, runAt: new Date(Date.now() + afterMs), maxAttempts: 5 })
  const queueSend = (id: number, t: Transaction) =>
    queue.enqueue(PAYOUT_SEND_TASK, { payoutId: id }, { transaction: t, jobKey: `payout-send-${id}`, maxAttempts: 10 })

  /**
   * Holds amount + fee and writes the payout in one transaction; automatic payouts queue their send in it.
   * A hold the earnings cannot cover throws 402 and nothing is written.
   */
  async function create(
    input: {
      agentId: number
      amountPesewas: number
      feePesewas: number
      numberId: number
      needsApproval: boolean
      channel: PayoutRow['channel']
      retryOf?: number | null
    },
    ctx: Ctx,
    t: Transaction
  ): Promise<PayoutRow> {
    const [{ id }] = (await q<{ id: string }>(`SELECT nextval('payouts_id_seq') AS id`, {}, t)) as [{ id: string }]
    const payoutId = Number(id)
    const status: PayoutStatus = input.needsApproval ? 'PENDING_APPROVAL' : 'QUEUED'
    const [row] = await q<any>(
      `INSERT INTO payouts (id, agent_id, payout_number_id, amount_pesewas, fee_pesewas, status, reference, provider, channel, retry_of, requested_by)
       VALUES (:id, :agentId, :numberId, :amount, :fee, :status, :reference, :provider, :channel, :retryOf, :by) RETURNING *`,
      {
        id: payoutId,
        agentId: input.agentId,
        numberId: input.numberId,
        amount: input.amountPesewas,
        fee: input.feePesewas,
        status,
        reference: referenceFor(payoutId),
        provider: transfers.name,
        channel: input.channel,
        retryOf: input.retryOf ?? null,
        by: ctx.user?.id ?? null
      },
      t
    )
    const total = input.amountPesewas + input.feePesewas
    try {
      await deps.earnings.post(
        {
          agentId: input.agentId,
          type: 'PAYOUT',
          amountPesewas: -total,
          reason: `Payout #${payoutId} to mobile money${input.feePesewas ? ` (fee ${formatCedis(toGhs(input.feePesewas))})` : ''}`,
          payoutId,
          actorUserId: ctx.user?.id ?? null
        },
        t
      )
    } catch (err) {
      if (err instanceof AppError && err.status === 402) {
        const available = Number(err.extra?.available ?? 0)
        throw new AppError(
          402,
          `${INSUFFICIENT_EARNINGS}: you have ${formatCedis(available)} available and this payout needs ${formatCedis(toGhs(total))}${input.feePesewas ? ' including the fee' : ''}.`,
          { available }
        )
      }
      throw err
    }
    if (!input.needsApproval) await queueSend(payoutId, t)
    return num(row)
  }

  async function requestFor(agentId: number, amountPesewas: Pesewas, channel: 'web' | 'ussd', ctx: Ctx): Promise<PayoutView> {
    const amount = toGhs(amountPesewas)
    return sequelize.transaction(async (t) => {
      const s = await payoutSettings(t)
      if (amountPesewas < toPesewas(s.minimum)) throw badRequest(`The minimum payout is ${formatCedis(s.minimum)}`)
      const number = await activeNumber(agentId, t)
      if (!number) throw badRequest('Add and verify a payout number first')
      const needsApproval = amountPesewas > toPesewas(s.approvalAbove)
      const p = await create({ agentId, amountPesewas, feePesewas: toPesewas(s.fee), numberId: number.id, needsApproval, channel }, ctx, t)
      await audit.record(
        {
          action: 'PAYOUT_REQUESTED',
          resource: 'PAYOUT',
          resourceId: p.id,
          severity: 'MEDIUM',
          details: { agentId, amount, fee: s.fee, network: number.network, phone: number.phone, channel, needsApproval }
        },
        { ...ctx, transaction: t }
      )
      return view(p.id, t)
    })
  }

  /**
   * The one way a payout reaches an end state: a conditional UPDATE from the states it may leave, the
   * return of the hold when no money left, and the audit entry, in one transaction. A second call
   * (a webhook delivered three times) finds nothing to update and changes nothing.
   */
  async function finish(
    id: number,
    to: PayoutStatus,
    from: PayoutStatus[],
    message: string,
    ctx: Ctx = {},
    extra: { transferCode?: string | null; reason?: string } = {}
  ): Promise<PayoutRow | null> {
    return sequelize.transaction(async (t) => {
      const decided = to === 'REJECTED'
      const [r] = await q<any>(
        `UPDATE payouts SET status = :to, message = :message, updated_at = now(), transfer_code = COALESCE(:code, transfer_code),
           settled_at = CASE WHEN :to IN ('SUCCESS','FAILED','REVERSED') THEN now() ELSE settled_at END
           ${decided ? ', decided_by = :by, decided_at = now(), decision_reason = :reason' : ''}
         WHERE id = :id AND status IN (:from) RETURNING *`,
        { id, to, from, message: message.slice(0, 300), code: extra.transferCode ?? null, by: ctx.user?.id ?? null, reason: extra.reason ?? null },
        t
      )
      if (!r) return null
      const p = num(r)
      const details: Record<string, unknown> = {
        agentId: p.agent_id,
        amount: toGhs(p.amount_pesewas),
        fee: toGhs(p.fee_pesewas),
        reference: p.reference,
        message
      }
      if (RETURNS.includes(to)) {
        const back = p.amount_pesewas + p.fee_pesewas
        const { entry, balancePesewas } = await deps.earnings.post(
          {
            agentId: p.agent_id,
            type: 'PAYOUT_RETURN',
            amountPesewas: back,
            reason: `Payout #${p.id} ${to.toLowerCase()}: ${message}`.slice(0, 300),
            payoutId: p.id,
            actorUserId: ctx.user?.id ?? null
          },
          t
        )
        Object.assign(details, { returned: entry ? toGhs(back) : 0, available: toGhs(balancePesewas) })
      }
      if (extra.reason) details.reason = extra.reason
      const action =
        { SUCCESS: 'PAYOUT_SUCCEEDED', FAILED: 'PAYOUT_FAILED', REVERSED: 'PAYOUT_REVERSED', REJECTED: 'PAYOUT_REJECTED' }[to as 'SUCCESS'] ?? `PAYOUT_${to}`
      await audit.record({ action, resource: 'PAYOUT', resourceId: p.id, severity: to === 'SUCCESS' ? 'MEDIUM' : 'HIGH', details }, { ...ctx, transaction: t })
      return p
    })
  }

  async function load(id: number): Promise<PayoutRow | null> {
    const [r] = await q<any>('SELECT * FROM payouts WHERE id = :id', { id })
    return r ? num(r) : null
  }

  const note = (p: PayoutRow, kind: string, summary: string, action: string, details: Record<string, unknown> = {}) =>
    attention.note({
      kind: kind as never,
      key: p.reference,
      transactionId: p.reference,
      summary,
      actionTaken: action,
      details: { payoutId: p.id, agentId: p.agent_id, amount: toGhs(p.amount_pesewas), ...details }
    })

  /** Applies the gateway's word (send answer, verify, webhook) to a payout; anything it cannot decide is listed. */
  async function apply(p: PayoutRow, w: TransferWord, source: string, ctx: Ctx = {}): Promise<PayoutRow | null> {
    if ((w.amountPesewas != null && w.amountPesewas !== p.amount_pesewas) || (w.currency && w.currency.toUpperCase() !== 'GHS')) {
      await note(
        p,
        'payout_mismatch',
        `Payout #${p.id}: the gateway reports ${w.amountPesewas != null ? `${pesewasFixed(w.amountPesewas)} ${w.currency ?? ''}` : 'another amount'} (${w.raw || w.state}) for ${ghsText(p.amount_pesewas)}`,
        'Nothing changed; check the transfer on the Paystack dashboard',
        { source, state: w.state }
      )
      return null
    }
    const code = { transferCode: w.transferCode ?? null }
    switch (w.state) {
      case 'success':
        return finish(p.id, 'SUCCESS', OPEN, w.message || 'Transfer successful', ctx, code)
      case 'failed':
        return finish(p.id, 'FAILED', OPEN, w.message || 'Transfer failed', ctx, code)
      case 'reversed':
        return finish(p.id, 'REVERSED', [...OPEN, 'SUCCESS'], w.message || 'Transfer reversed', ctx, code)
      default: {
        const [r] = await q<any>(
          `UPDATE payouts SET status = 'SENT', message = :message, transfer_code = COALESCE(:code, transfer_code), updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING *`,
          {
            id: p.id,
            message: (w.state === 'otp' ? 'Waiting for the transfer OTP at Paystack' : w.message || 'Transfer sent; waiting for the network').slice(0, 300),
            code: w.transferCode ?? null
          }
        )
        if (w.state === 'otp')
          await note(
            p,
            'payout_otp',
            `Payout #${p.id} waits for an OTP: Paystack asks for one on every transfer of this account`,
            'Finalize it on the Paystack dashboard, and turn off the transfer OTP so payouts go out by themselves'
          )
        await scheduleCheck(p.id, nextCheckMs(p))
        return r ? num(r) : null
      }
    }
  }

  /** The send job: claims a QUEUED payout, verifies first when it was sent before, then sends under its reference. */
  async function runSend(id: number): Promise<void> {
    const [r] = await q<any>(
      `UPDATE payouts SET status = 'SENDING', send_attempts = send_attempts + 1, updated_at = now() WHERE id = :id AND status = 'QUEUED' RETURNING *`,
      { id }
    )
    if (!r) return
    const p = num(r)
    if (p.send_attempts > 1) {
      const v = await transfers.verify(p.reference)
      if (v.kind === 'found') return void (await apply(p, v, 'verify before resend'))
      if (v.kind === 'unclear') return void (await unknown(p, v.reason))
    }
    const [n] = await q<PayoutNumberRow>('SELECT * FROM payout_numbers WHERE id = :id', { id: p.payout_number_id })
    const a = await transfers.send({
      reference: p.reference,
      amountPesewas: p.amount_pesewas,
      recipientCode: n!.recipient_code,
      reason: `Data Hub earnings payout #${p.id}`
    })
    if (a.kind === 'accepted') return void (await apply(p, a, 'send'))
    if (a.kind === 'unclear') return void (await unknown(p, a.reason))
    const failed = await finish(p.id, 'FAILED', ['SENDING'], `Transfer refused: ${a.message}`)
    if (failed)
      await note(
        p,
        'payout_refused',
        `Payout #${p.id} was refused by the gateway: ${a.message}`,
        "The money went back to the agent's earnings; fix the cause (balance, recipient) and retry it from Payouts"
      )
  }

  /** No clear answer: the transfer may or may not exist. The payout waits and is asked again, never guessed. */
  async function unknown(p: PayoutRow, reason: string) {
    // An accepted transfer (SENT) stays SENT: only its outcome is still owed.
    await q(`UPDATE payouts SET status = 'UNKNOWN', message = :m, updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING id`, {
      id: p.id,
      m: `Outcome not known yet (${reason}); asking the gateway again`.slice(0, 300)
    })
    await scheduleCheck(p.id, Math.max(nextCheckMs(p), 1000))
  }

  /** The check job: asks the gateway about an open payout and applies its answer. */
  async function check(id: number): Promise<PayoutView | null> {
    const p = await load(id)
    if (!p || !OPEN.includes(p.status)) return p ? view(p.id) : null
    // A send in progress right now (not a worker that died mid-call) is left to finish.
    if (p.status === 'SENDING' && Date.now() - new Date(p.updated_at).getTime() < env.PAYOUT_STALE_SECONDS * 1000) return view(p.id)
    await q(`UPDATE payouts SET last_checked_at = now() WHERE id = :id RETURNING id`, { id })
    const v = await transfers.verify(p.reference)
    if (v.kind === 'found') await apply(p, v, 'verify')
    else if (v.kind === 'unclear') await unknown(p, v.reason)
    else if (p.status === 'SENT') {
      await note(
        p,
        'payout_unclear',
        `Payout #${p.id} was accepted by the gateway but it no longer finds the transfer`,
        'Nothing changed; check the reference on the Paystack dashboard'
      )
    } else {
      // Never reached the gateway (or a dead worker before the call): sent again under the same reference.
      await sequelize.transaction(async (t) => {
        const [r] = await q<any>(
          `UPDATE payouts SET status = 'QUEUED', message = 'Not at the gateway yet; sending again', updated_at = now() WHERE id = :id AND status IN ('SENDING','UNKNOWN') RETURNING id`,
          { id },
          t
        )
        if (r) await queueSend(id, t)
      })
    }
    return view(p.id)
  }

  /** The minute sweep: every open payout not asked recently gets a check job (keyed, so never two). */
  async function sweep(): Promise<number> {
    const rows = await q<{ id: string }>(
      `SELECT id FROM payouts WHERE status IN ('SENDING','SENT','UNKNOWN') AND updated_at < now() - make_interval(secs => :age)
         AND (last_checked_at IS NULL OR last_checked_at < now() - interval '1 minute') ORDER BY last_checked_at NULLS FIRST, id LIMIT 200`,
      { age: env.PAYOUT_STALE_SECONDS }
    )
    for (const r of rows)
      await queue.enqueue(PAYOUT_CHECK_TASK, { payoutId: Number(r.id) }, { jobKey: `payout-check-${r.id}`, jobKeyMode: 'preserve_run_at', maxAttempts: 5 })
    return rows.length
  }

  /** Signed Paystack transfer.* events (the payments webhook routes them here by name). */
  async function onTransferEvent(e: PaystackEvent, ctx: Ctx = {}): Promise<{ handled: boolean; note: string }> {
    const ref = typeof e.data?.reference === 'string' ? e.data.reference : e.reference
    const [r] = ref ? await q<any>('SELECT * FROM payouts WHERE reference = :ref', { ref }) : []
    if (!r) return { handled: false, note: 'A transfer this shop did not make' }
    const state = { 'transfer.success': 'success', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' }[e.event] as TransferWord['state'] | undefined
    if (!state) return { handled: false, note: 'A transfer event this shop does not handle' }
    const d = e.data ?? {}
    await apply(
      num(r),
      {
        state,
        raw: String(d.status ?? state),
        message: String(d.reason_for_failure || d.gateway_response || `Paystack ${e.event}`).slice(0, 300),
        transferCode: d.transfer_code ?? null,
        amountPesewas: typeof d.amount === 'number' ? d.amount : null,
        currency: d.currency ?? null
      },
      e.event,
      ctx
    )
    return { handled: true, note: 'Payout updated' }
  }

  async function agentPayouts(agentId: number, limit = 50): Promise<PayoutView[]> {
    const rows = await q<any>(`${VIEW_SQL} WHERE p.agent_id = :agentId ORDER BY p.created_at DESC, p.id DESC LIMIT :limit`, { agentId, limit })
    return rows.map(presentPayout)
  }

  return {
    transfers,
    providerName: transfers.name,
    isSimulator: !!sim,
    settings: payoutSettings,
    view,
    check,
    runSend,
    sweep,
    onTransferEvent,

    /** The signed-in agent's page: available earnings, rules, the verified number, history. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Payouts')
      const [available, s, n, payouts] = await Promise.all([
        deps.earnings.balancePesewas(agent.id),
        payoutSettings(),
        activeNumber(agent.id),
        agentPayouts(agent.id)
      ])
      return { available: toGhs(available)!, settings: s, number: n ? numbers.present(n) : null, payouts, simulator: !!sim }
    },

    addNumber: numbers.add,
    removeNumber: numbers.remove,

    /** A withdrawal by the signed-in agent (web). */
    request: (raw: unknown, ctx: Ctx) => {
      const agentId = requireActiveAgent(ctx, 'Payouts').id
      return requestFor(agentId, toPesewas(validate<{ amount: number }>(amountSchema, raw).amount), 'web', ctx)
    },
    /** A withdrawal from the USSD menu, after the PIN (the dial's agent, checked by the menu). */
    requestFromUssd: (agentId: number, amountPesewas: Pesewas, ctx: Ctx) =>
      requestFor(agentId, validate<{ amount: Pesewas }>(amountPesewasSchema, { amount: amountPesewas }).amount, 'ussd', ctx),
    activeNumber: async (agentId: number) => {
      const n = await activeNumber(agentId)
      return n ? numbers.present(n) : null
    },

    /** Admin: pages of payouts by tab. */
    async list(raw: unknown) {
      const f = validate<{ status: string; page: number; limit: number }>(listSchema, raw)
      const w = listWhere(f.status)
      const [c] = await q<{ n: string }>(`SELECT count(*) AS n FROM payouts p WHERE ${w.where}`, w.params)
      const rows = await q<any>(`${VIEW_SQL} WHERE ${w.where} ORDER BY p.created_at DESC, p.id DESC LIMIT :limit OFFSET :offset`, {
        ...w.params,
        limit: f.limit,
        offset: (f.page - 1) * f.limit
      })
      const counts = await q<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM payouts GROUP BY status`, {})
      const total = Number(c!.n)
      return {
        payouts: rows.map(presentPayout),
        counts: Object.fromEntries(counts.map((r) => [r.status, Number(r.n)])),
        pagination: { page: f.page, limit: f.limit, total, totalPages: Math.max(1, Math.ceil(total / f.limit)) }
      }
    },

    async exportRows(raw: unknown, ctx: Ctx = {}): Promise<PayoutView[]> {
      const f = validate<{ status: string }>(listSchema, raw)
      const w = listWhere(f.status)
      const rows = (await q<any>(`${VIEW_SQL} WHERE ${w.where} ORDER BY p.created_at DESC, p.id DESC LIMIT 100000`, w.params)).map(presentPayout)
      await audit.record({ action: 'PAYOUTS_EXPORTED', resource: 'SYSTEM', severity: 'MEDIUM', details: { status: f.status || 'ALL', rows: rows.length } }, ctx)
      return rows
    },

    /** Admin: releases a payout held for approval; its send is queued in the same transaction. */
    async approve(id: number, ctx: Ctx): Promise<PayoutView> {
      return sequelize.transaction(async (t) => {
        const [r] = await q<any>(
          `UPDATE payouts SET status = 'QUEUED', decided_by = :by, decided_at = now(), message = 'Approved; sending', updated_at = now() WHERE id = :id AND status = 'PENDING_APPROVAL' RETURNING *`,
          { id, by: ctx.user?.id ?? null },
          t
        )
        if (!r) {
          await view(id, t)
          throw conflict('This payout is no longer waiting for approval')
        }
        await queueSend(id, t)
        await audit.record(
          {
            action: 'PAYOUT_APPROVED',
            resource: 'PAYOUT',
            resourceId: id,
            severity: 'HIGH',
            details: { agentId: r.agent_id, amount: toGhs(Number(r.amount_pesewas)) }
          },
          { ...ctx, transaction: t }
        )
        return view(id, t)
      })
    },

    /** Admin: refuses a payout held for approval; the held money goes back to the agent's earnings. */
    async reject(id: number, raw: unknown, ctx: Ctx): Promise<PayoutView> {
      const { reason } = validate<{ reason: string }>(reasonSchema, raw)
      const done = await finish(id, 'REJECTED', ['PENDING_APPROVAL'], `Rejected by an admin: ${reason}`, ctx, { reason })
      if (!done) {
        await view(id)
        throw conflict('This payout is no longer waiting for approval')
      }
      return view(id)
    },

    /**
     * Admin: sends a FAILED or REVERSED payout again as a new payout (its own hold and reference), once,
     * and only when the agent's available earnings still cover it (the first payout's money went back).
     */
    async retry(id: number, ctx: Ctx): Promise<PayoutView> {
      return sequelize.transaction(async (t) => {
        const [r] = await q<any>('SELECT * FROM payouts WHERE id = :id FOR UPDATE', { id }, t)
        if (!r) throw notFound('Payout not found')
        const p = num(r)
        if (!['FAILED', 'REVERSED'].includes(p.status)) throw conflict('Only failed or reversed payouts can be retried')
        const [again] = await q<{ id: string }>('SELECT id FROM payouts WHERE retry_of = :id', { id }, t)
        if (again) throw conflict(`This payout was already retried as payout #${again.id}`)
        const number = await activeNumber(p.agent_id, t)
        if (!number) throw badRequest('The agent has no verified payout number now')
        let created: PayoutRow
        try {
          created = await create(
            {
              agentId: p.agent_id,
              amountPesewas: p.amount_pesewas,
              feePesewas: p.fee_pesewas,
              numberId: number.id,
              needsApproval: false,
              channel: 'admin',
              retryOf: p.id
            },
            ctx,
            t
          )
        } catch (err) {
          if (err instanceof AppError && err.status === 402)
            throw new AppError(
              402,
              `The agent no longer has enough available earnings for this payout (${formatCedis(Number(err.extra?.available ?? 0))} available).`
            )
          throw err
        }
        await audit.record(
          {
            action: 'PAYOUT_RETRIED',
            resource: 'PAYOUT',
            resourceId: created.id,
            severity: 'HIGH',
            details: { retryOf: p.id, agentId: p.agent_id, amount: toGhs(p.amount_pesewas) }
          },
          { ...ctx, transaction: t }
        )
        return view(created.id, t)
      })
    },

    simulatorState() {
      if (!sim) throw notFound('The transfers simulator runs only without a Paystack key')
      return sim.state()
    },
    simulatorControl(raw: unknown, ctx: Ctx) {
      if (!sim) throw notFound('The transfers simulator runs only without a Paystack key')
      if (env.NODE_ENV === 'production' && ctx.user?.role !== 'ADMIN') throw forbidden('The transfers simulator control is for admins')
      return sim.control(validate(simulatorSchema, raw))
    }
  }
}
