import type { Sequelize } from 'sequelize'
import { conflict, notFound } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { phoneVariants } from '../../lib/phone.ts'
import { VOUCHER_RE } from '../../lib/vocabulary.ts'
import { publicOrigin } from '../../lib/origin.ts'
import type { Env } from '../../env.ts'
import type { Logger } from '../../lib/logger.ts'
import type { Ctx } from '../context.ts'
import type { CardStart, GatewayResult, GatewayTxn, MomoStart, PaymentProvider, PaymentRow, RefundAnswer, StartResult } from './provider.ts'
import { createSimulatorQueries, type SimulatedCheckout } from './queries-simulator.ts'

export const SIM_PROMPT_MESSAGE = 'USSD prompt sent! Check your phone and complete payment.'
export const SIM_VOUCHER_MESSAGE = 'Dial *110# on your Telecel phone to generate a voucher, then enter the voucher code here.'

/**
 * Simulator modes, chosen by the last digits of the payer's phone (docs/payments.md):
 * ...0001 the charge start "times out" (the prompt still reaches the phone); ...0002 refunds fail;
 * ...0003 the prompt stays on the phone after it expired, so the payer can approve late.
 * Telecel payers are always asked for a voucher first, as Paystack does.
 */
export const SIM_MODES = { startTimesOut: '0001', refundFails: '0002', approveAfterExpiry: '0003' } as const
const mode = (phone: string | null | undefined, m: keyof typeof SIM_MODES) => !!phone && phone.endsWith(SIM_MODES[m])

/**
 * The built-in gateway for installs without provider keys. Its "gateway side" is the payer's answer,
 * kept in payments.details.simulator ({ decision: 'APPROVED' | 'DECLINED', at }) by the simulator's
 * phone and checkout pages (or the documented HTTP calls); status checks read it like Paystack's verify.
 */
export function createSimulatorProvider(
  env: Env,
  lookupPhone: (reference: string) => Promise<(string | null)[]> = async () => [],
  list: (from: Date, to: Date) => Promise<GatewayTxn[]> = async () => []
): PaymentProvider {
  const refundPhone = lookupPhone
  const ttlMs = env.SIMULATOR_PROMPT_TTL_SECONDS * 1000
  const base = publicOrigin(env.PUBLIC_URL)
  const extId = (reference: string) => `SIM-${reference}`
  return {
    name: 'simulator',
    label: 'Payment Simulator',
    minCheckIntervalMs: () => 0,
    expireAfterMs: () => ttlMs,
    async startMomo(p: MomoStart): Promise<StartResult> {
      if (p.network === 'TELECEL') return { status: 'IN_PROGRESS', message: SIM_VOUCHER_MESSAGE, extId: extId(p.reference), needs: 'otp' }
      if (mode(p.phone, 'startTimesOut'))
        return {
          status: 'PENDING',
          message: 'Waiting for approval: check your phone and approve the payment.',
          unclear: true,
          note: 'Simulator: charge start timed out'
        }
      return { status: 'PENDING', message: SIM_PROMPT_MESSAGE, extId: extId(p.reference) }
    },
    async submitCode(p: PaymentRow, _kind, code: string): Promise<StartResult> {
      // Any 6 digits but 000000 is a valid voucher.
      if (!VOUCHER_RE.test(code) || code === '000000')
        return { status: 'IN_PROGRESS', message: 'Invalid voucher. Dial *110# to generate a new one and try again.', needs: 'otp', rejected: true }
      return { status: 'IN_PROGRESS', message: SIM_PROMPT_MESSAGE, extId: extId(p.transaction_id), needs: null }
    },
    async refund(c): Promise<RefundAnswer> {
      const [p] = await refundPhone(c.reference)
      if (mode(p, 'refundFails')) return { status: 'FAILED', message: 'Simulator: refund refused' }
      return { status: 'PROCESSED', extRefundId: `SIMR-${c.reference}`, message: 'Refund processed' }
    },
    async findRefund() {
      return null
    },
    listTransactions: list,
    async startCard(p: CardStart): Promise<StartResult> {
      return {
        status: 'PENDING',
        message: 'Complete the payment on the checkout page.',
        extId: extId(p.reference),
        authorizationUrl: `${base}/simulator/checkout?reference=${encodeURIComponent(p.reference)}`
      }
    },
    async check(p: PaymentRow): Promise<GatewayResult> {
      const decision = p.details?.simulator?.decision
      const id = p.ext_transaction_id ?? extId(p.transaction_id)
      if (decision === 'APPROVED') return { status: 'SUCCESS', message: 'Payment approved', extId: id, amountPesewas: p.amount_pesewas, currency: 'GHS' }
      if (decision === 'DECLINED') {
        return { status: 'FAILED', message: p.method === 'card' ? 'Payment cancelled at checkout' : 'Payment declined on the phone', extId: id }
      }
      if (new Date(p.created_at).getTime() + ttlMs < Date.now()) return { status: 'EXPIRED', message: 'Payment prompt expired', extId: id }
      return { status: 'PENDING', message: p.method === 'card' ? 'Waiting for checkout to complete' : SIM_PROMPT_MESSAGE, extId: id }
    }
  }
}

// ---- The simulator's controls: its phone and checkout pages, and the documented HTTP calls, use these.

interface Refresher {
  refresh(transactionId: string): Promise<{ paymentStatus: string; message: string } | null>
  mayRead(p: SimulatedCheckout, ctx: Ctx, phone?: unknown): boolean
}

export const BEING_CONFIRMED = 'Your answer was recorded. The payment is being confirmed.'

export function createSimulatorControl(deps: { sequelize: Sequelize; env: Env; payments: Refresher; active: boolean; log?: Logger }) {
  const { sequelize, env } = deps
  const ttl = env.SIMULATOR_PROMPT_TTL_SECONDS
  const queries = createSimulatorQueries(sequelize)
  const promptWindow = { ttlSecs: ttl, lateMode: SIM_MODES.approveAfterExpiry }
  const ensureActive = () => {
    if (!deps.active) throw notFound()
  }
  const ref = (reference: unknown) => {
    const r = String(reference ?? '').trim()
    if (!/^[A-Za-z0-9_.=-]{1,64}$/.test(r)) throw notFound('No simulated payment with this reference')
    return r
  }

  /** Records the payer's answer (once), then lets the payments service settle it as it would a gateway's. */
  async function answer(reference: unknown, decision: 'APPROVED' | 'DECLINED') {
    ensureActive()
    const r = ref(reference)
    if (!(await queries.recordAnswer(r, decision, promptWindow))) {
      const p = await queries.answerState(r)
      if (!p) throw notFound('No simulated payment with this reference')
      await deps.payments.refresh(r)
      if (p.answered || !['PENDING', 'IN_PROGRESS'].includes(p.status)) throw conflict('This payment has already been answered')
      throw conflict('This payment prompt has expired')
    }
    // The answer is saved: whatever happens to the settlement's read now, the payer must not be told
    // it failed. The status check and the reconcile job settle it from the saved answer.
    let after: Awaited<ReturnType<Refresher['refresh']>>
    try {
      after = await deps.payments.refresh(r)
    } catch (err) {
      deps.log?.warn({ err: { message: (err as Error).message }, reference: r }, 'simulator answer saved; its settlement will be confirmed later')
      return { reference: r, decision, paymentStatus: 'PENDING', message: BEING_CONFIRMED, beingConfirmed: true }
    }
    return { reference: r, decision, paymentStatus: after?.paymentStatus ?? 'PENDING', message: after?.message ?? '' }
  }

  return {
    active: deps.active,
    ttlSeconds: ttl,
    approve: (reference: unknown) => answer(reference, 'APPROVED'),
    decline: (reference: unknown) => answer(reference, 'DECLINED'),

    /**
     * Unanswered mobile-money prompts, newest first: those waiting on a number typed in, or with no
     * number, those of the payments this browser started. Never everyone's.
     */
    async prompts(phone: unknown, ctx: Ctx = {}) {
      ensureActive()
      const typed = phone !== undefined && phone !== null && phone !== ''
      const digits = typed ? String(phone).replace(/\D/g, '') : ''
      if (typed && (digits.length < 9 || digits.length > 12)) return []
      const mine = typed ? [] : (ctx.browser?.started() ?? [])
      if (!typed && !mine.length) return []
      const rows = await queries.openPrompts(typed ? phoneVariants(digits) : null, mine, promptWindow)
      return rows.map((p) => ({
        reference: p.transactionId,
        amount: toGhs(p.amountPesewas),
        phone: p.payerPhone,
        network: p.payerNetwork,
        purpose: p.purpose,
        createdAt: new Date(p.createdAt).toISOString(),
        expiresAt: new Date(new Date(p.createdAt).getTime() + ttl * 1000).toISOString()
      }))
    },

    /** What the simulated card checkout shows for a reference. */
    async checkout(reference: unknown, ctx: Ctx = {}, phone?: unknown) {
      ensureActive()
      const r = ref(reference)
      const p = await queries.checkout(r)
      // Only the browser that started it (or its owner, or whoever knows the payer's phone) sees a checkout.
      if (!p || !deps.payments.mayRead(p, ctx, phone)) throw notFound('No simulated payment with this reference')
      return {
        reference: p.transaction_id,
        amount: toGhs(p.amount_pesewas),
        email: p.email,
        purpose: p.purpose,
        status: p.status,
        answered: !!p.answered
      }
    }
  }
}
