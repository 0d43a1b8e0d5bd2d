import type { Env } from '../../env.ts'
import { createPaystackTransfers } from './paystack.ts'
import { createSimulatorTransfers, type SimulatorTransfers } from './simulator.ts'
import type { TransfersProvider } from './transfers.ts'

/**
 * The transfers provider the payouts service uses: the one a test hands in; Paystack when its key is set
 * and PAYMENT_PROVIDER does not ask for the simulator; else the simulator, so a fresh machine can pay out.
 * A function of its own because the service is built once per app: only a direct call can try each branch.
 */
export function pickTransfers(env: Env, given?: TransfersProvider): { transfers: TransfersProvider; sim: SimulatorTransfers | null } {
  if (given) return { transfers: given, sim: null }
  if (env.PAYSTACK_SECRET_KEY && env.PAYMENT_PROVIDER !== 'simulator') return { transfers: createPaystackTransfers(env), sim: null }
  const sim = createSimulatorTransfers({ delayMs: env.PAYOUT_SIMULATOR_DELAY_MS })
  return { transfers: sim.provider, sim }
}
