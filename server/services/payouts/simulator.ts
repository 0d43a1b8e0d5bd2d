import { randomUUID } from 'node:crypto'
import type { NumberAnswer, SendAnswer, TransferState, TransfersProvider, VerifyAnswer } from './transfers.ts'

export const TRANSFER_SIM_MODES = ['succeed', 'fail', 'reverse', 'timeout'] as const
export type TransferSimMode = (typeof TRANSFER_SIM_MODES)[number]

export interface TransferSimState {
  /** How the next `remaining` transfers end; after them the simulator succeeds again. */
  mode: TransferSimMode
  remaining: number
  delayMs: number
  sent: number
}

/**
 * The built-in transfers gateway for a fresh machine (no Paystack key): accepts any well-formed number,
 * completes transfers `delayMs` after they are sent. Its control (admin Payouts page, POST
 * /api/payouts/simulator) makes the next transfers fail, reverse, or time out (the transfer is made but
 * the answer is lost, so the payout waits for the verify), so every path can be seen. State lives in
 * this process; a reference it does not know is "not found", so the payout is sent again under the
 * same reference, as with Paystack.
 */
export function createSimulatorTransfers(opts: { delayMs: number }) {
  const transfers = new Map<string, { final: TransferState; at: number; amount: number; code: string }>()
  const initial = (): TransferSimState => ({ mode: 'succeed', remaining: 0, delayMs: opts.delayMs, sent: 0 })
  const state: TransferSimState = initial()
  const next = (): TransferSimMode => {
    if (state.remaining <= 0) return 'succeed'
    state.remaining--
    return state.mode
  }
  const word = (t: { final: TransferState; at: number; amount: number; code: string }) => {
    const s: TransferState = Date.now() >= t.at ? t.final : 'pending'
    const message =
      s === 'success'
        ? 'Simulator: transfer completed'
        : s === 'failed'
          ? 'Simulator: transfer failed (simulated)'
          : s === 'reversed'
            ? 'Simulator: transfer reversed (simulated)'
            : 'Simulator: transfer pending'
    return { state: s, raw: s, message, transferCode: t.code, amountPesewas: t.amount, currency: 'GHS' }
  }

  const provider: TransfersProvider = {
    name: 'simulator',
    async verifyNumber({ phone }): Promise<NumberAnswer> {
      return { kind: 'verified', recipientCode: `SIMRCP_${phone}`, bankCode: null, resolvedName: null }
    },
    async send({ reference, amountPesewas }): Promise<SendAnswer> {
      const seen = transfers.get(reference)
      if (seen) return { kind: 'accepted', ...word(seen) }
      const mode = next()
      const t = {
        final: (mode === 'fail' ? 'failed' : mode === 'reverse' ? 'reversed' : 'success') as TransferState,
        at: Date.now() + state.delayMs,
        amount: amountPesewas,
        code: `SIMTRF_${randomUUID().slice(0, 8)}`
      }
      transfers.set(reference, t)
      state.sent++
      if (mode === 'timeout') return { kind: 'unclear', reason: 'Simulator: the transfer call timed out (simulated; the transfer was made)' }
      return { kind: 'accepted', ...word(t) }
    },
    async verify(reference): Promise<VerifyAnswer> {
      const t = transfers.get(reference)
      return t ? { kind: 'found', ...word(t) } : { kind: 'not_found' }
    }
  }

  return {
    provider,
    state: (): TransferSimState => ({ ...state }),
    control(input: { mode: TransferSimMode; count?: number; delayMs?: number }): TransferSimState {
      state.mode = input.mode
      state.remaining = input.mode === 'succeed' ? 0 : (input.count ?? 1)
      if (input.delayMs !== undefined) state.delayMs = input.delayMs
      return { ...state }
    },
    /** As just built: its mode, delay and count, and no transfer known (a database emptied under a running app: tests). */
    reset() {
      transfers.clear()
      Object.assign(state, initial())
    }
  }
}

export type SimulatorTransfers = ReturnType<typeof createSimulatorTransfers>
