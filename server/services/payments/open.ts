import type { Sequelize, Transaction } from 'sequelize'
import { isUniqueViolation } from '../../../models/prepared.ts'
import { badRequest, conflict } from '../../lib/errors.ts'
import { normalizePhone, parseGhanaMobile } from '../../lib/phone.ts'
import { isNetwork, NETWORKS, orList } from '../../lib/vocabulary.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'
import { methodOf } from './choose.ts'
import type { Method, PaymentProvider, PaymentRow } from './provider.ts'
import { paymentValues, type NewPayment, type PaymentQueries } from './queries.ts'
import { EMAIL_RE, newTransactionId, requestSchema, type PaymentRequestInput, type PaymentView } from './request.ts'
import type { createSettlement } from './settle.ts'
import type { createStarter } from './start.ts'

interface OpeningDeps {
  sequelize: Sequelize
  settings: SettingsService
  provider: PaymentProvider
  queries: PaymentQueries
  starter: ReturnType<typeof createStarter>
  settlement: Pick<ReturnType<typeof createSettlement>, 'settle' | 'load'>
  present: (p: PaymentRow) => PaymentView
  /** The stand-in e-mail domain of a visitor paying by phone. */
  momoEmailDomain: string
}

/**
 * Opening a payment: who pays and how (checked before anything is written), its PENDING row and what
 * that row marks, and the start of its charge (now, after the caller's commit, or in a queued job).
 */
export function createOpening(deps: OpeningDeps) {
  const { sequelize, provider, queries, starter, present, momoEmailDomain } = deps
  const { settle, load } = deps.settlement

  async function methodFor(input: { method?: Method }): Promise<Method> {
    return input.method ?? methodOf(await deps.settings.getFresh())
  }

  /**
   * Checks who pays and how, before anything is written (orders call it first, so a bad payer never
   * leaves an orphan order). Throws the spec's messages.
   */
  function payerFor(method: Method, input: Pick<PaymentRequestInput, 'payerPhone' | 'payerNetwork' | 'email' | 'emailMessage'>, ctx: Ctx) {
    const typedEmail = String(input.email ?? '')
      .trim()
      .toLowerCase()
    if (method === 'momo') {
      // The prompt goes to this phone: a Ghanaian mobile number, however it was typed.
      const parsed = parseGhanaMobile(input.payerPhone)
      if (!parsed.ok) throw badRequest('Please enter a valid phone number')
      const phone = parsed.local
      const network = String(input.payerNetwork ?? '')
        .trim()
        .toUpperCase()
      if (!isNetwork(network)) throw badRequest(`Please select a payment network (${orList(NETWORKS)})`)
      const local = normalizePhone(phone)
      // Paystack's charge API needs an e-mail; a visitor paying by phone may not have given one.
      const email = EMAIL_RE.test(typedEmail) ? typedEmail : (ctx.user?.email ?? `momo-${local}@${momoEmailDomain}`)
      return { method, phone: local, network, email }
    }
    const email = typedEmail || String(ctx.user?.email ?? '').toLowerCase()
    if (!EMAIL_RE.test(email) || email.length > 254)
      throw badRequest(input.emailMessage ?? `Please enter a valid email address for ${provider.name === 'paystack' ? 'Paystack' : provider.label} payment`)
    return { method, phone: null, network: null, email }
  }

  /** What a request asks for, checked: the flow, who pays, and whether the charge starts now or in a queued job. */
  async function prepare(raw: PaymentRequestInput, ctx: Ctx) {
    const { value: input, error } = requestSchema.validate(raw)
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    return prepareChecked(input, ctx)
  }

  /** `prepare` for a request whose fields are already checked by the same rules (`withOrder`'s, from the order's check). */
  async function prepareChecked(input: PaymentRequestInput, ctx: Ctx) {
    const method = await methodFor(input)
    const free = input.amountPesewas === 0
    // A free fee collects nothing, so there is no payer phone or checkout e-mail to ask for.
    const payer = free
      ? {
          method,
          phone: null,
          network: null,
          email:
            String(input.email ?? '')
              .trim()
              .toLowerCase() ||
            (ctx.user?.email ?? null)
        }
      : payerFor(method, input, ctx)
    const transactionId = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
    // A charge started by the queue (USSD) adds its job in the same transaction as its row.
    const background = !!input.background && !free
    return { input, method, free, payer, transactionId, background }
  }

  /** The row a prepared request writes: PENDING, `claimed` when written with its start already claimed. */
  function rowOf(p: Awaited<ReturnType<typeof prepare>>, claimed: boolean): NewPayment {
    const { input, free, payer, transactionId } = p
    return {
      transactionId,
      purpose: input.purpose,
      gateway: free ? 'none' : provider.name,
      method: p.method,
      amountPesewas: input.amountPesewas,
      payerPhone: payer.phone,
      payerNetwork: payer.network,
      email: payer.email,
      orderId: input.orderId ?? null,
      afaRegistrationId: input.afaRegistrationId ?? null,
      agentId: input.agentId ?? null,
      userId: input.userId ?? null,
      details: {
        ...(input.afa ? { afa: input.afa } : {}),
        ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
        ...(input.voucher ? { voucher: input.voucher } : {}),
        ...(input.vouchers ? { vouchers: input.vouchers } : {})
      },
      simulated: !free && provider.name === 'simulator',
      claimed
    }
  }

  /**
   * The row and what it marks, in `transaction` when given. `claimed`: written with its start already
   * claimed (`startedAt`), for a caller that calls the gateway itself once its transaction committed.
   */
  async function write(p: Awaited<ReturnType<typeof prepare>>, transaction?: Transaction, claimed = false): Promise<PaymentRow> {
    const { input, transactionId } = p
    try {
      const row = await queries.insert(rowOf(p, claimed), transaction)
      const { simulated } = row
      if (simulated && input.orderId && !input.orderMarked) await queries.markOrderSimulated(input.orderId, transaction)
      if (input.purpose === 'agent_fee' && input.agentId) await queries.markAgentFeePending(input.agentId, transactionId, transaction)
      if (p.background) await starter.startLater(transactionId, transaction)
      return row
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Transaction ID already used. Please try again.')
      throw err
    }
  }

  async function request(raw: PaymentRequestInput, ctx: Ctx = {}): Promise<PaymentView> {
    const p = await prepare({ ...raw, userId: raw.userId ?? ctx.user?.id ?? null }, ctx)
    const { transactionId } = p
    // A charge started now (the browser waits on the gateway) needs the row committed first: webhooks
    // and checks on other connections must see it. A charge started by the queue (USSD) adds its job
    // in the same transaction (the caller's, which holds its order, when it has one): one commit
    // instead of three (ADR 0024).
    const written = p.background ? (ctx.transaction ? await write(p, ctx.transaction) : await sequelize.transaction((t) => write(p, t))) : await write(p)
    // This browser may come back to it (status, checkout, the simulator's phone); nobody else by its id alone.
    ctx.browser?.remember(transactionId)

    if (p.free) {
      // Nothing to collect (e.g. an AFA fee of 0): settled at once through the same single path.
      await settle(transactionId, { status: 'SUCCESS', message: 'No payment required', amountPesewas: 0, currency: 'GHS' }, ctx)
      return present((await load(transactionId))!)
    }

    // Queued: nothing has touched the row since it was written.
    if (p.background) return present(written)
    return present((await starter.startCharge(transactionId, ctx)) ?? (await load(transactionId))!)
  }

  /**
   * A charge to start now, written in the caller's transaction (an order and its payment: one commit,
   * ADR 0046) already claimed for its start. After the commit the caller calls `charge` with the row.
   */
  async function open(raw: PaymentRequestInput, ctx: Ctx & { transaction: Transaction }): Promise<PaymentRow> {
    const p = await prepare({ ...raw, userId: raw.userId ?? ctx.user?.id ?? null, background: false }, ctx)
    if (p.free) throw new Error('a payment opened with its order collects money')
    const row = await write(p, ctx.transaction, true)
    ctx.browser?.remember(p.transactionId)
    return row
  }

  /**
   * A charge to start now whose row the caller's own statement writes with its order
   * (`paymentOfWritten`): written already claimed, its parameters without the order's id. Only a data
   * payment that marks nothing else (its order written already marked when simulated, no queued start)
   * is written this way; null for any other, which `open` writes.
   * `raw` is built by the orders service from an order that passed the order's check: every field the
   * buyer typed there (payer phone, network, e-mail, transaction id, callback URL, voucher) has the
   * same rule as `requestSchema`'s, and the rest are the server's own (amount, ids, purpose), so the
   * schema is not run a second time on the order's path; who pays is still checked (`payerFor`: the
   * phone and the network, with the spec's messages), as for every request.
   */
  async function withOrder(raw: PaymentRequestInput, ctx: Ctx): Promise<{ transactionId: string; values: unknown[] } | null> {
    const p = await prepareChecked({ ...raw, userId: raw.userId ?? ctx.user?.id ?? null, background: false }, ctx)
    const row = rowOf(p, true)
    if (p.free || row.purpose !== 'data' || (row.simulated && !p.input.orderMarked)) return null
    const { transactionId } = p
    const values = paymentValues(row)
    return { transactionId, values }
  }

  /**
   * The gateway call for a row `open` (or the order's own statement) wrote, outside any transaction, for a browser
   * waiting on its order: the answer comes back from the statement that saved it, or, when the gateway's word moves
   * nothing, as that statement leaves the row, without waiting for it (`answerBehind`, ADR 0064).
   */
  async function charge(row: PaymentRow, ctx: Ctx = {}): Promise<PaymentView> {
    return present((await starter.startClaimed(row, ctx, { answerBehind: true })) ?? (await load(row.transaction_id))!)
  }

  return { methodFor, payerFor, request, open, withOrder, charge }
}
