import type { Sequelize } from 'sequelize'
import type { Env } from '../../../env.ts'
import type { NetworkName } from '../../../lib/vocabulary.ts'
import type { Settings } from '../../settings/index.ts'
import type { DeliveryVendor } from '../vendor.ts'
import { createSimulatorVendor, databaseKeyStore, type SimulatorVendor } from './simulator.ts'
import { createSkytechVendor } from './skytech.ts'

/** The vendors this instance can use: the simulator always, SkyTech when its keys are configured. */
export function createVendors(env: Env, sequelize?: Sequelize) {
  const store = sequelize ? databaseKeyStore(sequelize) : undefined
  const simulator: SimulatorVendor = createSimulatorVendor({ delayMs: env.DELIVERY_SIMULATOR_DELAY_MS, timeoutMs: env.DELIVERY_VENDOR_TIMEOUT_MS, store })
  const byName = new Map<string, DeliveryVendor>([['simulator', simulator.vendor]])
  if (env.SKYTECH_API_KEY && env.SKYTECH_API_SECRET) {
    byName.set(
      'skytech',
      createSkytechVendor({
        baseUrl: env.SKYTECH_BASE_URL,
        apiKey: env.SKYTECH_API_KEY,
        apiSecret: env.SKYTECH_API_SECRET,
        timeoutMs: env.DELIVERY_VENDOR_TIMEOUT_MS
      })
    )
  }
  const settingKey = { MTN: 'deliveryVendorMtn', TELECEL: 'deliveryVendorTelecel', AIRTELTIGO: 'deliveryVendorAirteltigo' } as const satisfies Record<
    NetworkName,
    keyof Settings
  >

  return {
    simulator,
    /** By name (the vendor recorded on an order); undefined when it is not configured here. */
    get: (name: string) => byName.get(name),
    configured: () => [...byName.keys()],
    /** The vendor name the settings choose for a network ('auto': SkyTech when configured, else the simulator). */
    nameFor(network: string, s: Settings): string {
      const choice = s[settingKey[network as keyof typeof settingKey]] ?? 'auto'
      if (choice === 'auto') return byName.has('skytech') ? 'skytech' : 'simulator'
      return choice
    }
  }
}

export type Vendors = ReturnType<typeof createVendors>
