import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net, { type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Addresses an outgoing request chosen by a user (an agent's webhook URL) may reach: public unicast
 * only. Loopback, private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT
 * and the like would let an agent make the shop's servers call into its own network.
 */
export function isPublicAddress(ip: string): boolean {
  const addr = parseIp(ip)
  if (!addr) return false
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast'
  const v6 = addr as ipaddr.IPv6
  const embedded = embeddedIPv4(v6)
  if (embedded) return embedded.every((v4) => v4.range() === 'unicast')
  return v6.range() === 'unicast' && !v6.match(LOCAL_NAT64)
}

/**
 * ipaddr.js 1.x reads a dotted IPv4 tail only after ::ffff:, so `::8.8.8.8` or `64:ff9b::10.0.0.1` would
 * not parse at all; rewriting the tail as two hex groups lets every IPv6 form be judged.
 */
function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const hex = net.isIPv6(ip)
    ? ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`)
    : ip
  return ipaddr.isValid(hex) ? ipaddr.parse(hex) : null
}

// Operators choose where the IPv4 address sits under this prefix, so nothing inside it can be judged public.
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48') as [ipaddr.IPv6, number]

const v4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])

/**
 * The IPv4 addresses an IPv6 address carries when its packets end up there (compatible, mapped,
 * translated, NAT64, 6to4, Teredo): `[::127.0.0.1]` reaches loopback just as `127.0.0.1` does, so the
 * embedded address is what must be public. Teredo carries two, the relay server and the obfuscated
 * client, and a packet can reach either. Null when the address embeds none.
 */
export function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = addr.parts
  const zeroUpTo = (n: number) => p.slice(0, n).every((w) => w === 0)
  if (zeroUpTo(6)) return [v4Of(p[6]!, p[7]!)] // ::/96, IPv4-compatible (also :: and ::1, which land in 0.0.0.0/8)
  if (zeroUpTo(5) && p[5] === 0xffff) return [v4Of(p[6]!, p[7]!)] // ::ffff:0:0/96, IPv4-mapped
  if (zeroUpTo(4) && p[4] === 0xffff && p[5] === 0) return [v4Of(p[6]!, p[7]!)] // ::ffff:0:0:0/96, IPv4-translated
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((w) => w === 0)) return [v4Of(p[6]!, p[7]!)] // 64:ff9b::/96, NAT64
  if (p[0] === 0x2002) return [v4Of(p[1]!, p[2]!)] // 2002::/16, 6to4
  if (p[0] === 0x2001 && p[1] === 0) return [v4Of(p[2]!, p[3]!), v4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff)] // 2001::/32, Teredo
  return null
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
  return net.isIP(host) ? host : null
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
