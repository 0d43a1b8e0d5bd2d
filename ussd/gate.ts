import type { Request, RequestHandler } from 'express'
import type { Env } from '../server/env.ts'
import { randomToken, safeEqual } from '../server/lib/crypto.ts'
import type { Logger } from '../server/lib/logger.ts'

/** The in-process USSD simulator proves itself with this per-process token (it never leaves the server). */
export const SIMULATOR_TOKEN = randomToken(24)
export const SIMULATOR_HEADER = 'x-ussd-simulator'

const normIp = (ip: string) => ip.trim().replace(/^::ffff:/, '')

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split('.')
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null
  return parts.reduce((n, p) => n * 256 + Number(p), 0)
}

/** Exact addresses, or IPv4 ranges like 196.201.214.0/24. */
export function ipAllowed(ip: string, list: string[]): boolean {
  const addr = normIp(ip)
  return list.some((entry) => {
    const [base, bits] = entry.split('/')
    if (bits === undefined) return normIp(base!) === addr
    const a = ipv4ToInt(addr)
    const b = ipv4ToInt(base!)
    const n = Number(bits)
    if (a === null || b === null || !(n >= 0 && n <= 32)) return false
    const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0
    return (a & mask) >>> 0 === (b & mask) >>> 0
  })
}

function sentSecret(req: Request): string | null {
  const h = req.headers['x-ussd-secret']
  if (typeof h === 'string') return h
  // Africa's Talking cannot add headers: the secret can ride in the callback URL's query instead.
  const q = req.query.secret
  return typeof q === 'string' ? q : null
}

const LOOPBACK = ['127.0.0.1', '::1']

/**
 * Who may speak for the telco (docs/ussd.md): a request passes with the shared secret
 * (USSD_SHARED_SECRET, header x-ussd-secret or ?secret=) OR from an allowlisted address
 * (USSD_ALLOWED_IPS, comma-separated, IPv4 ranges allowed). In production with neither set, only
 * loopback passes (a gateway proxied on the same host); elsewhere with neither set it is open (development).
 * Every refusal is logged with the address.
 */
export function ussdGate(env: Env, log: Logger, refuse: (req: Request, res: Parameters<RequestHandler>[1]) => void): RequestHandler {
  const secret = env.USSD_SHARED_SECRET ?? null
  const ips = (env.USSD_ALLOWED_IPS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const prod = env.NODE_ENV === 'production'
  const open = !prod && !secret && !ips.length
  const allowed = secret || ips.length ? ips : prod ? LOOPBACK : []
  if (prod && !secret && !ips.length) {
    log.warn('USSD endpoint accepts loopback only: set USSD_SHARED_SECRET or USSD_ALLOWED_IPS for the gateway (docs/ussd.md)')
  }
  return (req, res, next) => {
    const sim = req.headers[SIMULATOR_HEADER]
    if (typeof sim === 'string' && safeEqual(sim, SIMULATOR_TOKEN)) return next()
    if (open) return next()
    const sent = sentSecret(req)
    if (secret && sent && safeEqual(sent, secret)) return next()
    if (allowed.length && ipAllowed(req.ip ?? '', allowed)) return next()
    const why = sent ? 'bad shared secret' : secret ? 'no shared secret and address not allowed' : 'address not allowed'
    ;(req.log ?? log).warn({ ip: req.ip, gateway: req.params?.gateway }, `USSD request refused: ${why}`)
    return refuse(req, res)
  }
}
