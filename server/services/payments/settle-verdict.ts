import { ghsText } from '../../lib/money.ts'
import type { GatewayResult } from './provider.ts'

/** Verify before value: amount and currency must both be there and cover the price. */
export function verdict(due: number, result: GatewayResult): { ok: boolean; why?: string; paid: number | null; currency: string | null; excess: number } {
  const paid = typeof result.amountPesewas === 'number' && Number.isInteger(result.amountPesewas) && result.amountPesewas >= 0 ? result.amountPesewas : null
  const currency = result.currency ? String(result.currency).toUpperCase() : null
  if (paid === null) return { ok: false, why: 'The gateway did not say how much was paid', paid, currency, excess: 0 }
  if (!currency) return { ok: false, why: 'The gateway did not say in which currency it was paid', paid, currency, excess: 0 }
  if (currency !== 'GHS') return { ok: false, why: `Paid in ${currency}, not GHS`, paid, currency, excess: 0 }
  if (paid < due) return { ok: false, why: `Paid ${ghsText(paid)}, less than the ${ghsText(due)} due`, paid, currency, excess: 0 }
  return { ok: true, paid, currency, excess: paid - due }
}
