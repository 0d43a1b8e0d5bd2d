import { toGhs, type Pesewas } from '../../lib/money.ts'
import { networkMismatchWarning, parseGhanaMobile } from '../../lib/phone.ts'
import { isNetwork, NETWORK_LABEL, NETWORKS, orList, type NetworkName } from '../../lib/vocabulary.ts'
import type { Actor } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Quote } from '../pricing/index.ts'
import { NETWORK_ALIASES, type RawLine } from './parse.ts'

/** A line as checked: what would be ordered and at what price, or why it cannot be. */
export interface CheckedLine {
  line: number
  /** The line written back in one canonical form (`0241234567,MTN,1GB`), for fixing it in place. */
  text: string
  recipient: string
  network: NetworkName | null
  packageId: number | null
  bundle: string
  pricePesewas: Pesewas
  /** A sub-agent's line: its parent's price and margin, fixed with the line (ADR 0041). */
  parent: Quote['parent']
  /** Why this line cannot be ordered; null when it can. */
  error: string | null
  /** Orderable, but worth a look (the number's prefix belongs to another network). */
  warning: string | null
  /** The line number this one repeats (same number, same bundle). */
  duplicateOf: number | null
}

/** The price of one line for this buyer: the one function a bulk order asks, so a pricing change applies here too. */
type LinePrice = (pkg: PackageRow, actor: Actor | null | undefined) => Pesewas

/** A network as typed (MTN, mtn, Telecel, AT, Vodafone...), or null when it names none. */
export function networkOfWord(word: string): NetworkName | null {
  const w = word.trim().toUpperCase().replace(/[\s-]/g, '')
  if (isNetwork(w)) return w
  const alias = NETWORK_ALIASES[w]
  return alias && isNetwork(alias) ? alias : null
}

const SIZE_RE = /^(\d+(?:\.\d+)?)\s*(gb|g|mb|m)$/i
const squash = (s: string) => s.toLowerCase().replace(/\s+/g, '')

/** Sizes as stored: a gigabyte is 1024 MB (the catalogue's own rule). */
function sizeMbOf(bundle: string): number | null {
  const m = SIZE_RE.exec(bundle.trim())
  if (!m) return null
  const n = Number(m[1])
  return Math.round(/^g/i.test(m[2]!) ? n * 1024 : n)
}

/**
 * The active catalogue, indexed once per preview: a thousand lines are checked without a query each.
 * `name` is the name people see (a package's own, or "1.0GB MTN").
 */
export function catalogue(rows: PackageRow[], nameOf: (p: PackageRow) => string) {
  const byId = new Map<number, PackageRow>()
  const bySize = new Map<string, PackageRow>()
  const byName = new Map<string, PackageRow[]>()
  // Rows come cheapest first within a size: the first one kept is the one a size names.
  for (const p of rows) {
    byId.set(p.id, p)
    const sizeKey = `${p.network}:${p.sizeMb}`
    if (!bySize.has(sizeKey)) bySize.set(sizeKey, p)
    const key = squash(nameOf(p))
    byName.set(key, [...(byName.get(key) ?? []), p])
  }
  return {
    byId: (id: number) => byId.get(id) ?? null,
    find(bundle: string, network: NetworkName): PackageRow | null {
      const mb = sizeMbOf(bundle)
      if (mb !== null) return bySize.get(`${network}:${mb}`) ?? null
      // "1GB MTN" typed as a name names the size on that network too.
      const words = bundle
        .trim()
        .split(/\s+/)
        .filter((w) => networkOfWord(w) !== network)
      const sized = words.length === 1 ? sizeMbOf(words[0]!) : null
      if (sized !== null) return bySize.get(`${network}:${sized}`) ?? null
      return (byName.get(squash(bundle)) ?? []).find((p) => p.network === network) ?? null
    }
  }
}

export type Catalogue = ReturnType<typeof catalogue>

/** Checks every line like a single order: number, network, an active bundle, the price this buyer pays; then flags repeats. */
export function checkLines(lines: RawLine[], cat: Catalogue, price: (p: PackageRow) => Quote): CheckedLine[] {
  const seen = new Map<string, number>()
  return lines.map((raw) => {
    const out = checkOne(raw, cat, price)
    if (!out.error) {
      const key = `${out.recipient}:${out.packageId}`
      const first = seen.get(key)
      if (first === undefined) seen.set(key, out.line)
      else out.duplicateOf = first
    }
    return out
  })
}

function checkOne(raw: RawLine, cat: Catalogue, price: (p: PackageRow) => Quote): CheckedLine {
  const base: CheckedLine = {
    line: raw.line,
    text: [raw.recipient, raw.network, raw.bundle].join(','),
    recipient: raw.recipient,
    network: null,
    packageId: null,
    bundle: raw.bundle,
    pricePesewas: 0,
    parent: null,
    error: null,
    warning: null,
    duplicateOf: null
  }
  const refuse = (error: string) => ({ ...base, error })
  if (!raw.recipient) return refuse('Enter recipient number')
  const phone = parseGhanaMobile(raw.recipient)
  if (!phone.ok) return refuse(phone.error)
  base.recipient = phone.local
  let network: NetworkName | null = null
  if (raw.network) {
    network = networkOfWord(raw.network)
    if (!network) return refuse(`Network must be ${orList(NETWORKS.map((n) => NETWORK_LABEL[n]!))}`)
  }
  const bundle = raw.bundle.trim()
  if (!bundle) return refuse('Please select a package')
  let pkg: PackageRow | null
  if (/^#?\d+$/.test(bundle)) {
    pkg = cat.byId(Number(bundle.replace('#', '')))
    if (!pkg) return refuse(`No active package with id ${bundle.replace('#', '')}`)
    if (network && pkg.network !== network) return refuse(`Package ${pkg.id} is a ${NETWORK_LABEL[pkg.network]} bundle, not ${NETWORK_LABEL[network]}`)
    network = pkg.network as NetworkName
  } else {
    network ??= phone.network
    pkg = cat.find(bundle, network)
    if (!pkg) return refuse(`No active ${bundle} bundle on ${NETWORK_LABEL[network]}`)
  }
  const { pricePesewas, parent } = price(pkg)
  // A package priced 0 would be "paid" with nothing: never sold, as for a single order.
  if (!(pricePesewas >= 1)) return refuse('This package is not available for purchase')
  return {
    ...base,
    text: [phone.local, network, bundle].join(','),
    network,
    packageId: pkg.id,
    pricePesewas,
    parent,
    warning: networkMismatchWarning(phone.local, network)
  }
}

/** The preview as the portal and the API show it (GHS). */
export function presentLines(lines: CheckedLine[]) {
  return lines.map((l) => ({
    line: l.line,
    text: l.text,
    recipient: l.recipient,
    network: l.network,
    packageId: l.packageId,
    bundle: l.bundle,
    price: l.error ? null : toGhs(l.pricePesewas),
    error: l.error,
    warning: l.warning,
    duplicateOf: l.duplicateOf
  }))
}
