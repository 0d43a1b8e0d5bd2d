import { NETWORKS } from '../_storefront/format.ts'

/**
 * The networks the buy form offers: those with at least one package (a shop that sells only
 * Telecel shows no empty MTN tab), or all three when nothing is on sale, so the form still says so.
 */
export function offeredNetworks(packages: { network: string }[]): string[] {
  const sold = NETWORKS.filter((n) => packages.some((p) => p.network === n))
  return sold.length ? sold : [...NETWORKS]
}

/**
 * The network the form opens on: the one a `?network=` link asked for (the tabs are such links, so
 * they work without JavaScript) when it is offered, else the first offered one.
 */
export function openingNetwork(packages: { network: string }[], asked: unknown): string {
  const offered = offeredNetworks(packages)
  const wanted = typeof asked === 'string' ? asked.toUpperCase() : ''
  return offered.includes(wanted) ? wanted : offered[0]!
}
