import { QueryTypes, type Sequelize } from 'sequelize'
import type { PaymentRow } from './provider.ts'

// The statements of the simulator's controls: the payer's answer kept on the payment, and the
// prompts and checkout its pages show. Only the simulator's own payments are ever read here.

/** Which prompts are still open to an answer: their window, and the phone ending of the "approve late" mode. */
export interface PromptWindow {
  ttlSecs: number
  lateMode: string
}

/** An unanswered mobile-money prompt. */
export interface SimulatedPrompt {
  transactionId: string
  amountPesewas: number
  payerPhone: string
  payerNetwork: string
  purpose: string
  createdAt: Date
}

/** A simulated checkout: the payment's columns `mayRead` needs, and whether the payer answered. */
export type SimulatedCheckout = Pick<
  PaymentRow,
  'transaction_id' | 'amount_pesewas' | 'email' | 'purpose' | 'status' | 'method' | 'user_id' | 'payer_phone'
> & { answered: boolean }

export function createSimulatorQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    /** Whether the answer was kept: only once, and only while the prompt is open. */
    async recordAnswer(reference: string, decision: 'APPROVED' | 'DECLINED', w: PromptWindow): Promise<boolean> {
      const rows = await q<{ transaction_id: string }>(
        `UPDATE payments SET details = jsonb_set(details, '{simulator}', jsonb_build_object('decision', CAST(:decision AS text), 'at', now())), updated_at = now()
       WHERE transaction_id = :r AND gateway = 'simulator' AND NOT (details ? 'simulator') AND COALESCE(details->>'needs', '') = ''
         AND ((status IN ('PENDING','IN_PROGRESS') AND created_at > now() - make_interval(secs => :ttl)) OR (status = 'EXPIRED' AND payer_phone LIKE '%' || :lateMode AND settled_at > now() - interval '1 hour'))
       RETURNING transaction_id`,
        { r: reference, decision, ttl: w.ttlSecs, lateMode: w.lateMode }
      )
      return rows.length > 0
    },

    /** A simulated payment's status and whether it was answered. */
    async answerState(reference: string): Promise<{ status: string; answered: boolean } | undefined> {
      const [p] = await q<{ status: string; answered: boolean }>(
        `SELECT status, (details ? 'simulator') AS answered FROM payments WHERE transaction_id = :r AND gateway = 'simulator'`,
        { r: reference }
      )
      return p
    },

    /** Open prompts to the phones given, or (with `phones` null) of the references given. */
    async openPrompts(phones: string[] | null, mine: string[], w: PromptWindow): Promise<SimulatedPrompt[]> {
      const typed = phones !== null
      const rows = await q<Record<string, any>>(
        `SELECT transaction_id, amount_pesewas, payer_phone, payer_network, purpose, created_at FROM payments
         WHERE gateway = 'simulator' AND method = 'momo'
           AND ${typed ? 'payer_phone IN (:phones)' : 'transaction_id IN (:mine)'}
           AND NOT (details ? 'simulator') AND COALESCE(details->>'needs', '') = ''
           AND ((status IN ('PENDING','IN_PROGRESS') AND created_at > now() - make_interval(secs => :ttl)) OR (status = 'EXPIRED' AND payer_phone LIKE '%' || :lateMode AND settled_at > now() - interval '1 hour'))
         ORDER BY created_at DESC LIMIT 20`,
        { phones: phones ?? [''], mine: mine.length ? mine : [''], ttl: w.ttlSecs, lateMode: w.lateMode }
      )
      return rows.map((p) => ({
        transactionId: p.transaction_id,
        amountPesewas: Number(p.amount_pesewas),
        payerPhone: p.payer_phone,
        payerNetwork: p.payer_network,
        purpose: p.purpose,
        createdAt: p.created_at
      }))
    },

    async checkout(reference: string): Promise<SimulatedCheckout | undefined> {
      const [p] = await q<SimulatedCheckout>(
        `SELECT transaction_id, amount_pesewas, email, purpose, status, method, user_id, payer_phone, (details ? 'simulator') AS answered FROM payments
         WHERE transaction_id = :r AND gateway = 'simulator'`,
        { r: reference }
      )
      return p
    }
  }
}
