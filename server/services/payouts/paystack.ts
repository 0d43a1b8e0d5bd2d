import type { AxiosInstance } from 'axios'
import type { Env } from '../../env.ts'
import { MOMO_LABEL } from '../../lib/vocabulary.ts'
import { paystackCaller } from '../payments/paystack.ts'
import {
  transferState,
  type NumberAnswer,
  type PayoutNetwork,
  type SendAnswer,
  type TransferWord,
  type TransfersProvider,
  type VerifyAnswer
} from './transfers.ts'

/** Paystack's mobile-money "banks" for GHS, matched by code first, then by name (Telecel was Vodafone). */
const BANK_MATCH: Record<PayoutNetwork, { codes: string[]; name: RegExp }> = {
  MTN: { codes: ['MTN'], name: /mtn/i },
  TELECEL: { codes: ['VOD', 'TEL'], name: /telecel|vodafone/i },
  AIRTELTIGO: { codes: ['ATL', 'AIRTELTIGO'], name: /airtel|tigo/i }
}

const wordOf = (d: any, fallback: string): TransferWord => ({
  state: transferState(d?.status),
  raw: String(d?.status ?? ''),
  message: String(d?.gateway_response || d?.reason_for_failure || d?.failures?.message || fallback).slice(0, 300),
  transferCode: d?.transfer_code != null ? String(d.transfer_code) : null,
  amountPesewas: typeof d?.amount === 'number' ? d.amount : null,
  currency: d?.currency ?? null
})

/**
 * Paystack Transfers (docs/payments.md, '## Payouts'): GET /bank?currency=GHS&type=mobile_money,
 * GET /bank/resolve, POST /transferrecipient (type mobile_money), POST /transfer (source balance,
 * our reference: Paystack keeps one transfer per reference), GET /transfer/verify/:reference.
 */
export function createPaystackTransfers(env: Env, http?: AxiosInstance): TransfersProvider {
  const call = paystackCaller(env, http)
  let banks: { at: number; list: any[] } | null = null

  async function bankCode(network: PayoutNetwork): Promise<{ code: string } | { refused: string } | { unclear: string }> {
    if (!banks || Date.now() - banks.at > 3_600_000) {
      const r = await call('get', '/bank', undefined, { currency: 'GHS', type: 'mobile_money' })
      if (r.kind === 'unclear') return { unclear: r.reason }
      if (!r.ok || !r.list) return { refused: r.message || 'Paystack did not list the mobile money networks' }
      banks = { at: Date.now(), list: r.list }
    }
    const m = BANK_MATCH[network]
    const bank = banks.list.find((b) => m.codes.includes(String(b?.code ?? '').toUpperCase())) ?? banks.list.find((b) => m.name.test(String(b?.name ?? '')))
    return bank ? { code: String(bank.code) } : { refused: `Paystack does not offer transfers to ${MOMO_LABEL[network]}` }
  }

  return {
    name: 'paystack',
    async verifyNumber({ network, phone, accountName }): Promise<NumberAnswer> {
      const bank = await bankCode(network)
      if ('unclear' in bank) return { kind: 'unclear', reason: bank.unclear }
      if ('refused' in bank) return { kind: 'refused', message: bank.refused }
      let resolvedName: string | null = null
      const resolved = await call('get', '/bank/resolve', undefined, { account_number: phone, bank_code: bank.code })
      if (resolved.kind === 'unclear') return { kind: 'unclear', reason: resolved.reason }
      if (resolved.ok) resolvedName = resolved.data?.account_name ? String(resolved.data.account_name).slice(0, 120) : null
      // Paystack resolves some networks only; where it says so, the recipient creation below checks the number.
      else if (!/not (supported|available)|unsupported/i.test(resolved.message)) {
        return { kind: 'refused', message: `${MOMO_LABEL[network]} could not confirm ${phone}: ${resolved.message || 'account not found'}` }
      }
      const r = await call('post', '/transferrecipient', {
        type: 'mobile_money',
        name: resolvedName ?? accountName,
        account_number: phone,
        bank_code: bank.code,
        currency: 'GHS'
      })
      if (r.kind === 'unclear') return { kind: 'unclear', reason: r.reason }
      if (!r.ok || !r.data?.recipient_code) return { kind: 'refused', message: r.message || 'Paystack did not accept this number' }
      return {
        kind: 'verified',
        recipientCode: String(r.data.recipient_code),
        bankCode: bank.code,
        resolvedName: resolvedName ?? (r.data?.details?.account_name ? String(r.data.details.account_name) : null)
      }
    },

    async send({ reference, amountPesewas, recipientCode, reason }): Promise<SendAnswer> {
      const r = await call('post', '/transfer', {
        source: 'balance',
        amount: amountPesewas,
        recipient: recipientCode,
        reason: reason.slice(0, 100),
        currency: 'GHS',
        reference
      })
      if (r.kind === 'unclear') return r
      // Our own earlier call with this reference went through: the transfer exists, ask for it.
      if (!r.ok && /duplicate|already (been )?(exists|used|initiated)/i.test(r.message)) return { kind: 'unclear', reason: `Paystack: ${r.message}` }
      if (!r.ok) return { kind: 'refused', message: r.message || 'Paystack refused the transfer' }
      return { kind: 'accepted', ...wordOf(r.data, r.message || 'Transfer queued') }
    },

    async verify(reference: string): Promise<VerifyAnswer> {
      const r = await call('get', `/transfer/verify/${encodeURIComponent(reference)}`)
      if (r.kind === 'unclear') return r
      if (!r.ok) return r.httpStatus === 404 || /not found/i.test(r.message) ? { kind: 'not_found' } : { kind: 'unclear', reason: `Paystack: ${r.message}` }
      return { kind: 'found', ...wordOf(r.data, r.message || 'Transfer retrieved') }
    }
  }
}
