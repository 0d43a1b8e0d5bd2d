import { Tabs } from '../../renderer/ui/Tabs.tsx'
import { NETWORK_LABEL } from '../_storefront/format.ts'
import type { StorePackage } from './+data.ts'
import { offeredNetworks } from './networks.ts'
import { PackagePicker } from './PackagePicker.tsx'

/**
 * The network tabs and every network's packages. All panels are in the server's HTML (the others
 * `hidden`), so a visitor without JavaScript, a link preview or a search engine sees every price,
 * and each tab is a `?network=` link the server opens on. With JavaScript a tab switches in place.
 */
export function NetworkPackages(props: {
  packages: StorePackage[]
  network: string
  onNetwork(n: string): void
  selected: number | null
  onSelect(id: number): void
  agentPricing: boolean
}) {
  const networks = offeredNetworks(props.packages)
  return (
    <fieldset>
      <legend className="label">Package</legend>
      <Tabs
        className="is-toggle is-fullwidth"
        label="Network"
        current={props.network}
        onChange={props.onNetwork}
        everyPanel
        tabs={networks.map((n) => ({ id: n, label: NETWORK_LABEL[n] ?? n, href: `?network=${n}` }))}
      />
      {networks.map((n) => (
        <div key={n} role="tabpanel" id={`panel-${n}`} aria-labelledby={`tab-${n}`} hidden={n !== props.network}>
          <PackagePicker
            packages={props.packages.filter((p) => p.network === n)}
            label={`${NETWORK_LABEL[n] ?? n} data package`}
            selected={props.selected}
            onSelect={props.onSelect}
            agentPricing={props.agentPricing}
          />
        </div>
      ))}
    </fieldset>
  )
}
