import axios, { type AxiosResponse } from 'axios'
import { SmsError, type SmsProvider } from '../provider.ts'

/** Arkesel's examples write numbers internationally without '+': 0241234567 -> 233241234567. */
const international = (phone: string) => (/^0\d{9}$/.test(phone) ? `233${phone.slice(1)}` : phone)

/**
 * Arkesel SMS API v2 (https://developers.arkesel.com): POST /api/v2/sms/send with header `api-key`
 * and JSON {sender, message, recipients: ['233...']}; success is
 * {status: 'success', data: [{recipient, id}]}; refusals answer 4xx with {status: 'error', message}.
 */
export function createArkeselProvider(cfg: { baseUrl: string; apiKey: string; timeoutMs?: number }): SmsProvider {
  const http = axios.create({ baseURL: cfg.baseUrl, timeout: cfg.timeoutMs ?? 10_000, validateStatus: () => true })
  return {
    name: 'arkesel',
    async send({ to, message, sender }) {
      let res: AxiosResponse
      try {
        res = await http.post(
          '/api/v2/sms/send',
          { sender, message, recipients: [international(to)] },
          { headers: { 'api-key': cfg.apiKey, Accept: 'application/json' } }
        )
      } catch (err) {
        throw new SmsError(`Arkesel unreachable: ${(err as Error).message}`, true)
      }
      const body = (res.data ?? {}) as { status?: string; message?: string; data?: Array<{ recipient?: string; id?: string }> }
      if (res.status >= 200 && res.status < 300 && body.status === 'success') {
        const sent = (body.data ?? []).find((d) => d.id)
        if (!sent) throw new SmsError('Arkesel: invalid recipient number', false)
        return { messageId: String(sent.id) }
      }
      throw new SmsError(`Arkesel: ${body.message ?? `HTTP ${res.status}`}`, res.status >= 500 || res.status === 429)
    }
  }
}
