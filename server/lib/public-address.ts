import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Addresses an outgoing request chosen by a user (an agent's webhook URL) may reach: public unicast
 * only. Loopback, private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT
 * and the like would let an agent make the shop's servers call into its own network.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false
  let addr = ipaddr.parse(ip)
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address()
  return addr.range() === 'unicast'
}

export class PrivateAddressError extends Error {
  code = 'EPRIVATEADDRESS'
  constructor(host: string, ip: string) {
    super(`${host} resolves to ${ip}, which is not a public address`)
  }
}

/** A DNS lookup that fails for names resolving to any non-public address (checked at connect time, so DNS rebinding cannot slip past a check made earlier). */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0)
    const list = addresses as dns.LookupAddress[]
    const bad = list.find((a) => !isPublicAddress(a.address))
    if (bad || list.length === 0) return callback(new PrivateAddressError(hostname, bad?.address ?? 'nothing'), '', 0)
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

/** The literal host of a URL when it is an IP address (connections to literals skip the lookup), else null. */
export function literalHostOf(url: string): string | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  return ipaddr.isValid(host) ? host : null
}

/** Refuses a URL whose literal IP host is not public; names are checked by `publicOnlyLookup` on connect. */
export function assertPublicUrl(url: string): void {
  const literal = literalHostOf(url)
  if (literal !== null && !isPublicAddress(literal)) throw new PrivateAddressError(new URL(url).hostname, literal)
}

/** axios options that keep a request on public addresses (fresh agents: no pooled socket to a checked-once address). */
export function publicOnlyAgents() {
  return { httpAgent: new http.Agent({ lookup: publicOnlyLookup }), httpsAgent: new https.Agent({ lookup: publicOnlyLookup }) }
}
