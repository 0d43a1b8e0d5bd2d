import { phoneVariants } from '../../lib/phone.ts'
import type { WhatsappQueries } from './queries.ts'

/** The simulator's customer typing (text) or tapping (replyId), checked at the edge. */
export interface SimulateInput {
  /** Digits only, 9 to 15 of them. */
  from: string
  name: string
  text: string
  replyId: string | null
  replyTitle: string
}

interface SimulatorDeps {
  queries: WhatsappQueries
  receive(body: unknown): Promise<unknown>
  runChat(waId: string): Promise<void>
  runSend(ids: number[]): Promise<void>
}

/** The simulator's customer, shaped as Meta's webhook would carry it, then handled the same way. */
export function createChatSimulator(deps: SimulatorDeps) {
  const { queries, receive, runChat, runSend } = deps
  return async function simulate(input: SimulateInput): Promise<{ waId: string }> {
    const local = phoneVariants(input.from).find((p) => p.startsWith('233')) ?? input.from
    const id = `wamid.SIMIN${Date.now()}${Math.random().toString(36).slice(2, 10)}`
    const timestamp = String(Math.floor(Date.now() / 1000))
    const message = input.replyId
      ? { id, from: local, timestamp, type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: input.replyId, title: input.replyTitle } } }
      : { id, from: local, timestamp, type: 'text', text: { body: input.text } }
    await receive({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'SIM',
          changes: [
            {
              field: 'messages',
              value: { messaging_product: 'whatsapp', contacts: [{ wa_id: local, profile: { name: input.name } }], messages: [message] }
            }
          ]
        }
      ]
    })
    // The simulator's sender answers at once: answered and sent now rather than waiting on a worker.
    await runChat(local)
    await runSend(await queries.queuedIds(local))
    return { waId: local }
  }
}
