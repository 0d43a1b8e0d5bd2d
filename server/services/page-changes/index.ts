import type { Sequelize } from 'sequelize'
import type { ConnectionStates } from '../../lib/connection-states.ts'
import { listenForever } from '../../lib/pg-listener.ts'
import type { PackagesService } from '../packages/index.ts'
import type { PageDataService } from '../page-data/index.ts'
import type { ShopsService } from '../shops/index.ts'
import type { SignedInService } from '../signed-in/index.ts'
import type { VouchersService } from '../vouchers/index.ts'

/**
 * Triggers NOTIFY here at commit when packages, a shop, its prices or its agent's standing change (migration 250),
 * checker products or their stock (330), or what a signed-in page shows (340: `page:<what>`), a session or a user (345: `signed-in:<what>`).
 */
export const CHANGES_CHANNEL = 'datahub_changes'
export const CHANGES_LISTENER = 'datahub-changes-listener'

/**
 * Hands other instances' writes to the caches of this one (ADR 0036): the catalogue and the page
 * cache follow `packages.invalidate()`, a shop's cached pages follow `shops.changed(id)`, the /checkers page
 * follows `vouchers.changed()` (ADR 0047), signed-in pages' data follows `pageData.changed(what)` and the signed-in session and user
 * `signedIn.changed(what)` (ADR 0048), both of which also follow this connection to know when it has heard every earlier write. Returns a
 * stop function; the connection comes back by itself, and what was sent while it was gone is
 * covered by dropping everything (the 5 s lifetime of a cached page holds meanwhile).
 */
export async function listenForPageChanges(deps: {
  sequelize: Sequelize
  connections: ConnectionStates
  packages: PackagesService
  shops: ShopsService
  vouchers: Pick<VouchersService, 'changed'>
  pageData: Pick<PageDataService, 'changed' | 'follow'>
  signedIn: Pick<SignedInService, 'changed' | 'follow'>
}): Promise<() => Promise<void>> {
  const c = deps.sequelize.config
  const listener = await listenForever({
    name: CHANGES_LISTENER,
    config: { host: c.host, port: Number(c.port), user: c.username, password: c.password ?? undefined, database: c.database },
    channels: [CHANGES_CHANNEL],
    onNotify: (_channel, payload) => {
      if (payload === 'packages') return deps.packages.invalidate()
      if (payload === 'vouchers') return deps.vouchers.changed()
      if (payload?.startsWith('page:')) return deps.pageData.changed(payload.slice('page:'.length))
      if (payload?.startsWith('signed-in:')) return deps.signedIn.changed(payload.slice('signed-in:'.length))
      const shop = /^shop:(\d+)$/.exec(payload ?? '')
      deps.shops.changed(shop ? Number(shop[1]) : null)
    },
    onGap: () => {
      deps.packages.invalidate()
      deps.shops.changed(null)
      deps.vouchers.changed()
      deps.pageData.changed()
      deps.signedIn.changed()
    },
    states: deps.connections
  })
  deps.pageData.follow(listener)
  deps.signedIn.follow(listener)
  return async () => {
    deps.pageData.follow(null)
    deps.signedIn.follow(null)
    await listener()
  }
}
