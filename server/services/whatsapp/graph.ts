import axios, { type AxiosResponse } from 'axios'
import crypto from 'node:crypto'

/** Sends one Cloud API message body; answers Meta's message id. */
export interface WhatsappSender {
  name: 'graph' | 'simulator'
  send(body: Record<string, unknown>): Promise<{ wamid: string }>
}

export class WhatsappSendError extends Error {
  retry: boolean
  constructor(message: string, retry: boolean) {
    super(message)
    this.retry = retry
  }
}

/**
 * The WhatsApp Cloud API: POST {graphUrl}/{version}/{phoneNumberId}/messages with a bearer token;
 * success is {messaging_product, contacts: [{input, wa_id}], messages: [{id}]}; refusals answer 4xx
 * with {error: {message, type, code}}. 429 and 5xx are tried again later.
 */
export function createGraphSender(cfg: { graphUrl: string; version: string; phoneNumberId: string; token: string; timeoutMs?: number }): WhatsappSender {
  const http = axios.create({ baseURL: cfg.graphUrl.replace(/\/+$/, ''), timeout: cfg.timeoutMs ?? 10_000, validateStatus: () => true })
  return {
    name: 'graph',
    async send(body) {
      let res: AxiosResponse
      try {
        res = await http.post(`/${cfg.version}/${cfg.phoneNumberId}/messages`, body, {
          headers: { Authorization: `Bearer ${cfg.token}`, 'Content-Type': 'application/json' }
        })
      } catch (err) {
        throw new WhatsappSendError(`WhatsApp unreachable: ${(err as Error).message}`, true)
      }
      const data = (res.data ?? {}) as { messages?: { id?: string }[]; error?: { message?: string } }
      const id = data.messages?.[0]?.id
      if (res.status >= 200 && res.status < 300 && id) return { wamid: String(id) }
      throw new WhatsappSendError(`WhatsApp: ${data.error?.message ?? `HTTP ${res.status}`}`, res.status >= 500 || res.status === 429 || res.status < 400)
    }
  }
}

/** No account configured: every message counts as sent at once; the simulator page shows the chat. */
export function createSimulatorSender(): WhatsappSender {
  return {
    name: 'simulator',
    async send() {
      return { wamid: `wamid.SIM${crypto.randomBytes(12).toString('hex')}` }
    }
  }
}
