import Joi from 'joi'
import { badRequest } from '../../lib/errors.ts'
import type { Settings } from '../settings/index.ts'
import { percentOf, toGhs, toPesewas } from '../../lib/money.ts'

/** What a shop may be called, what colour it may wear, and what it may charge. Pure rules, no I/O. */

export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,28})[a-z0-9]$/
/** Words a shop link may not be: our own routes and names people would mistake for the platform's. */
export const RESERVED_SLUGS = new Set([
  'admin',
  'administrator',
  'agent',
  'agents',
  'api',
  'app',
  'afa',
  'assets',
  'buy',
  'data-hub',
  'datahub',
  'data-services',
  'dashboard',
  'edit',
  'help',
  'home',
  'login',
  'logout',
  'my-orders',
  'new',
  'null',
  'official',
  'og',
  'payment',
  'payment-callback',
  'payments',
  'mine',
  'register',
  'root',
  'settings',
  'shop',
  'shops',
  'simulator',
  'static',
  'support',
  'system',
  'undefined',
  'ussd',
  'www'
])

export const SLUG_RULE = 'Shop link must be 3 to 30 characters: lowercase letters, digits and hyphens, starting and ending with a letter or digit'

/** The slug as typed, trimmed and lower-cased; throws the rule's message when it does not fit. */
export function checkSlug(raw: unknown): string {
  const slug = String(raw ?? '')
    .trim()
    .toLowerCase()
  if (!slug) throw badRequest('Enter a shop link')
  if (!SLUG_RE.test(slug) || slug.includes('--')) throw badRequest(SLUG_RULE)
  if (RESERVED_SLUGS.has(slug)) throw badRequest(`"${slug}" is reserved. Please choose another shop link`)
  return slug
}

/** An sRGB channel (0 to 1) made linear (WCAG 2): a straight segment for the darkest values, a curve above. */
function linear(c: number): number {
  // Stryker disable next-line EqualityOperator: no channel n/255 is exactly 0.03928 (10/255 lies below, 11/255 above), so `<` changes nothing; `>` is left out with it
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** Relative luminance of #rrggbb (WCAG 2). */
function luminance(hex: string): number {
  const ch = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map(linear)
  return 0.2126 * ch[0]! + 0.7152 * ch[1]! + 0.0722 * ch[2]!
}

/** WCAG contrast ratio between two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m)
  return (x! + 0.05) / (y! + 0.05)
}

export const ACCENT_RE = /^#[0-9a-f]{6}$/
export const MIN_ACCENT_CONTRAST = 4.5
/** Suggested colours; each keeps white text readable (>= 4.5:1), so buttons read well in light and dark mode. */
export const ACCENT_PALETTE = ['#00796b', '#1565c0', '#6a1b9a', '#c62828', '#ad1457', '#2e7d32', '#37474f', '#8a4b00'] as const

/**
 * The accent is used as the background of white text (buttons, the header band), in both colour
 * schemes, so it must be a #rrggbb with at least 4.5:1 contrast against white.
 */
export function checkAccent(raw: unknown): string {
  const hex = String(raw ?? '')
    .trim()
    .toLowerCase()
  if (!ACCENT_RE.test(hex)) throw badRequest('Accent colour must be a hex colour like #00796b')
  if (
    // Stryker disable next-line EqualityOperator: no #rrggbb is exactly 4.5:1 against white (all 16.7 million checked), so `<=` refuses the same colours; `>=` is left out with it
    contrastRatio(hex, '#ffffff') < MIN_ACCENT_CONTRAST
  )
    throw badRequest('Choose a darker accent colour: white text on it must stay readable (contrast at least 4.5:1)')
  return hex
}

/** The most a shop may charge: the floor plus the admin's maximum markup (percent of the floor, rounded down, or GHS). */
export function ceilingOf(floor: number, s: Pick<Settings, 'shopMaxMarkupType' | 'shopMaxMarkupValue'>): number {
  const value = Math.max(0, Number(s.shopMaxMarkupValue) || 0)
  return floor + (s.shopMaxMarkupType === 'FIXED' ? toPesewas(value) : percentOf(floor, value, Math.floor))
}

/** The price a listed bundle sells at now: what the agent saved, held inside today's limits (admin limits may have moved since). */
export const sellingPrice = (saved: number, floor: number, ceiling: number): number => Math.min(Math.max(saved, floor), ceiling)

/** A shop's price for one thing it may sell (a bundle, a checker card) as the agent's editor shows it, in GHS. */
export interface ShopPriceFields {
  listed: boolean
  /** What the agent saved, or null when not listed. */
  saved: number | null
  /** What it sells at now (the saved price held inside today's limits). */
  price: number | null
  floor: number
  ceiling: number
  margin: number | null
}

/** The editor's fields from what the agent saved (undefined: not sold) and today's limits, in pesewas. */
export function priceFields(saved: number | undefined, floor: number, ceiling: number): ShopPriceFields {
  const price = saved === undefined ? null : sellingPrice(saved, floor, ceiling)
  return {
    listed: saved !== undefined,
    saved: toGhs(saved),
    price: toGhs(price),
    floor: toGhs(floor),
    ceiling: toGhs(ceiling),
    margin: price === null ? null : toGhs(price - floor)
  }
}

// What an agent sends for its prices (pricing's checkPriceChanges, shared with sub-agents' prices) and a buyer for a shop order.
export const pricesSchema = Joi.object({
  prices: Joi.array()
    .min(1)
    .max(500)
    .required()
    .items(
      Joi.object({
        packageId: Joi.number().integer().min(1).max(2_147_483_647).required(),
        // null: not sold in this shop
        price: Joi.number().min(0.01).max(100000).precision(2).allow(null).required()
      })
    )
    .messages({ '*': 'Send prices as a list of packageId and price (price in GHS, or null to stop selling it)' })
}).options({ stripUnknown: true })

export const orderBodySchema = Joi.object({
  // The price the buyer saw and confirmed, in GHS: the order is placed at it or not at all.
  price: Joi.number().min(0.01).max(100000).required().messages({ '*': 'The confirmed price is missing. Please reload the page and try again.' })
}).options({ allowUnknown: true })
