import { networkOfPhone } from '../server/lib/phone.ts'

// Ghana mobile network codes (MCC 620) as gateways send them; number ranges live in server/lib/phone.ts.
const BY_CODE: Record<string, string> = { '62001': 'MTN', '62002': 'TELECEL', '62003': 'AIRTELTIGO', '62006': 'AIRTELTIGO' }

/** The caller's mobile-money network: from the gateway's network field, else from the number. */
export function payerNetworkOf(gatewayNetwork: string | null, phone: string): string | null {
  const g = String(gatewayNetwork ?? '')
    .trim()
    .toUpperCase()
  if (BY_CODE[g]) return BY_CODE[g]!
  if (g.includes('MTN')) return 'MTN'
  if (g.includes('VODA') || g.includes('TELECEL')) return 'TELECEL'
  if (g.includes('AIRTEL') || g.includes('TIGO')) return 'AIRTELTIGO'
  return networkOfPhone(phone)
}
