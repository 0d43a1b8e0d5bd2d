import type { Sequelize, Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { formatCedis, ghsText, pesewasFixed, toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import { INSUFFICIENT_EARNINGS } from '../earnings/ledger.ts'
import type { Attention } from '../payments/attention.ts'
import type { PaystackEvent } from '../payments/paystack.ts'
import type { Queue } from '../queue/index.ts'
import { OPEN, PAYOUT_CHECK_TASK, PAYOUT_SEND_TASK, RETURNS, referenceFor, type PayoutStatus, type PayoutView } from './model.ts'
import type { Payout, PayoutQueries } from './queries.ts'
import type { SimulatorTransfers } from './simulator.ts'
import type { TransferWord, TransfersProvider } from './transfers.ts'
import { presentPayout } from './view.ts'

export interface PayoutLifecycleDeps {
  sequelize: Sequelize
  env: Env
  audit: AuditService
  earnings: EarningsService
  queue: Queue
  attention: Attention
  transfers: TransfersProvider
  sim: SimulatorTransfers | null
  queries: PayoutQueries
}

/**
 * A payout's life from its hold to the gateway's word: created with its hold, sent by a job under
 * its reference, asked about until the gateway answers, and ended once (ADR 0020 '## Payouts').
 */
export function createPayoutLifecycle(deps: PayoutLifecycleDeps) {
  const { sequelize, audit, queue, attention, env, transfers, sim, queries } = deps
  /** How long to wait before asking the gateway about a sent transfer (the webhook usually comes first). */
  const checkAfterMs = () => (sim ? sim.state().delayMs + 250 : env.PAYOUT_CHECK_AFTER_MS)
  /** The longer a transfer stays open, the less often it is asked about (at most every 30 minutes; the minute sweep also catches it). */
  const nextCheckMs = (p: Payout) => Math.max(checkAfterMs(), Math.min(Date.now() - new Date(p.createdAt).getTime(), 30 * 60_000))

  async function view(id: number, t?: Transaction): Promise<PayoutView> {
    const p = await queries.listedById(id, t)
    if (!p) throw notFound('Payout not found')
    return presentPayout(p)
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
      channel: Payout['channel']
      retryOf?: number | null
    },
    ctx: Ctx,
    t: Transaction
  ): Promise<Payout> {
    const payoutId = await queries.nextId(t)
    const payout = await queries.insert(
      {
        id: payoutId,
        agentId: input.agentId,
        numberId: input.numberId,
        amountPesewas: input.amountPesewas,
        feePesewas: input.feePesewas,
        status: input.needsApproval ? 'PENDING_APPROVAL' : 'QUEUED',
        reference: referenceFor(payoutId),
        provider: transfers.name,
        channel: input.channel,
        retryOf: input.retryOf ?? null,
        requestedBy: ctx.user?.id ?? null
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
    return payout
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
  ): Promise<Payout | null> {
    return sequelize.transaction(async (t) => {
      const decision = to === 'REJECTED' ? { by: ctx.user?.id ?? null, reason: extra.reason ?? null } : undefined
      const p = await queries.end({ id, to, from, message: message.slice(0, 300), transferCode: extra.transferCode ?? null, decision }, t)
      if (!p) return null
      const details: Record<string, unknown> = {
        agentId: p.agentId,
        amount: toGhs(p.amountPesewas),
        fee: toGhs(p.feePesewas),
        reference: p.reference,
        message
      }
      if (RETURNS.includes(to)) {
        const back = p.amountPesewas + p.feePesewas
        const { entry, balancePesewas } = await deps.earnings.post(
          {
            agentId: p.agentId,
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

  const note = (p: Payout, kind: string, summary: string, action: string, details: Record<string, unknown> = {}) =>
    attention.note({
      kind: kind as never,
      key: p.reference,
      transactionId: p.reference,
      summary,
      actionTaken: action,
      details: { payoutId: p.id, agentId: p.agentId, amount: toGhs(p.amountPesewas), ...details }
    })

  /** Applies the gateway's word (send answer, verify, webhook) to a payout; anything it cannot decide is listed. */
  async function apply(p: Payout, w: TransferWord, source: string, ctx: Ctx = {}): Promise<Payout | null> {
    if ((w.amountPesewas != null && w.amountPesewas !== p.amountPesewas) || (w.currency && w.currency.toUpperCase() !== 'GHS')) {
      await note(
        p,
        'payout_mismatch',
        `Payout #${p.id}: the gateway reports ${w.amountPesewas != null ? `${pesewasFixed(w.amountPesewas)} ${w.currency ?? ''}` : 'another amount'} (${w.raw || w.state}) for ${ghsText(p.amountPesewas)}`,
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
        const sent = await queries.markSent(
          p.id,
          (w.state === 'otp' ? 'Waiting for the transfer OTP at Paystack' : w.message || 'Transfer sent; waiting for the network').slice(0, 300),
          w.transferCode ?? null
        )
        if (w.state === 'otp')
          await note(
            p,
            'payout_otp',
            `Payout #${p.id} waits for an OTP: Paystack asks for one on every transfer of this account`,
            'Finalize it on the Paystack dashboard, and turn off the transfer OTP so payouts go out by themselves'
          )
        await scheduleCheck(p.id, nextCheckMs(p))
        return sent
      }
    }
  }

  /** The send job: claims a QUEUED payout, verifies first when it was sent before, then sends under its reference. */
  async function runSend(id: number): Promise<void> {
    const p = await queries.claimSend(id)
    if (!p) return
    if (p.sendAttempts > 1) {
      const v = await transfers.verify(p.reference)
      if (v.kind === 'found') return void (await apply(p, v, 'verify before resend'))
      if (v.kind === 'unclear') return void (await unknown(p, v.reason))
    }
    const n = await queries.numberById(p.payoutNumberId)
    const a = await transfers.send({
      reference: p.reference,
      amountPesewas: p.amountPesewas,
      recipientCode: n!.recipientCode,
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
  async function unknown(p: Payout, reason: string) {
    // An accepted transfer (SENT) stays SENT: only its outcome is still owed.
    await queries.markUnknown(p.id, `Outcome not known yet (${reason}); asking the gateway again`.slice(0, 300))
    await scheduleCheck(p.id, Math.max(nextCheckMs(p), 1000))
  }

  /** The check job: asks the gateway about an open payout and applies its answer. */
  async function check(id: number): Promise<PayoutView | null> {
    const p = await queries.byId(id)
    if (!p || !OPEN.includes(p.status)) return p ? view(p.id) : null
    // A send in progress right now (not a worker that died mid-call) is left to finish.
    if (p.status === 'SENDING' && Date.now() - new Date(p.updatedAt).getTime() < env.PAYOUT_STALE_SECONDS * 1000) return view(p.id)
    await queries.markChecked(id)
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
        if (await queries.requeue(id, t)) await queueSend(id, t)
      })
    }
    return view(p.id)
  }

  /** The minute sweep: every open payout not asked recently gets a check job (keyed, so never two). */
  async function sweep(): Promise<number> {
    const ids = await queries.staleOpenIds(env.PAYOUT_STALE_SECONDS)
    for (const id of ids)
      await queue.enqueue(PAYOUT_CHECK_TASK, { payoutId: id }, { jobKey: `payout-check-${id}`, jobKeyMode: 'preserve_run_at', maxAttempts: 5 })
    return ids.length
  }

  /** Signed Paystack transfer.* events (the payments webhook routes them here by name). */
  async function onTransferEvent(e: PaystackEvent, ctx: Ctx = {}): Promise<{ handled: boolean; note: string }> {
    const ref = typeof e.data?.reference === 'string' ? e.data.reference : e.reference
    const p = ref ? await queries.byReference(ref) : null
    if (!p) return { handled: false, note: 'A transfer this shop did not make' }
    const state = { 'transfer.success': 'success', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' }[e.event] as TransferWord['state'] | undefined
    if (!state) return { handled: false, note: 'A transfer event this shop does not handle' }
    const d = e.data ?? {}
    await apply(
      p,
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

  return { view, create, finish, queueSend, runSend, check, sweep, onTransferEvent }
}

export type PayoutLifecycle = ReturnType<typeof createPayoutLifecycle>
