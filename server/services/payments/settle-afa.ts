import type { Transaction } from 'sequelize'
import type { PaymentRow } from './provider.ts'
import type { createSettleQueries } from './queries-settle.ts'

type AfaQueries = Pick<ReturnType<typeof createSettleQueries>, 'afaSettled' | 'insertAfa' | 'linkAfa'>

/**
 * An AFA payment's registration at settlement: the linked one follows the payment's status; a paid form without one is
 * recorded and linked. Answers the recorded registration's id (null: the form's reference was taken already), or
 * undefined when none was recorded here.
 */
export async function afaOfPayment(queries: AfaQueries, p: PaymentRow, success: boolean, t: Transaction): Promise<number | null | undefined> {
  const form = p.details?.afa as { fullName?: string; ghCard?: string; phone?: string; email?: string } | undefined
  // Stryker disable next-line BlockStatement: a fence no input reaches: no caller opens a payment with a registration, and settle and POST /api/afa link one only after SUCCESS
  if (p.afa_registration_id) {
    await queries.afaSettled(p.afa_registration_id, p.status, t)
    return undefined
  }
  if (!(success && form?.fullName && form.ghCard && form.phone)) return undefined
  // Recorded as soon as the money is in, so a closed browser never loses a paid registration.
  const regId = await queries.insertAfa(
    {
      fullName: form.fullName,
      ghCard: form.ghCard,
      phone: form.phone,
      email: form.email ?? null,
      amountPesewas: p.amount_pesewas,
      transactionId: p.transaction_id
    },
    t
  )
  if (regId) await queries.linkAfa(p.id, regId, t)
  return regId
}
