import { normalizePhone } from '../server/lib/phone.ts'

// Ghana mobile network codes (MCC 620) as gateways send them, and the number ranges of each network.
const BY_CODE: Record<string, string> = { '62001': 'MTN', '62002': 'TELECEL', '62003': 'AIRTELTIGO', '62006': 'AIRTELTIGO' }
const BY_PREFIX: Record<string, string> = {
  '024': 'MTN', '025': 'MTN', '053': 'MTN', '054': 'MTN', '055': 'MTN', '059': 'MTN',
  '020': 'TELECEL', '050': 'TELECEL',
  '026': 'AIRTELTIGO', '027': 'AIRTELTIGO', '056': 'AIRTELTIGO', '057': 'AIRTELTIGO',
}

/** The caller's mobile-money network: from the gateway's network field, else from the number. */
export function payerNetworkOf(gatewayNetwork: string | null, phone: string): string | null {
  const g = String(gatewayNetwork ?? '').trim().toUpperCase()
  if (BY_CODE[g]) return BY_CODE[g]!
  if (g.includes('MTN')) return 'MTN'
  if (g.includes('VODA') || g.includes('TELECEL')) return 'TELECEL'
  if (g.includes('AIRTEL') || g.includes('TIGO')) return 'AIRTELTIGO'
  return BY_PREFIX[normalizePhone(phone).slice(0, 3)] ?? null
}
