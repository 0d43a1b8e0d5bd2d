import type { Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import type { Logger } from '../../lib/logger.ts'
import { formatSize, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import type { Queue } from '../queue/index.ts'
import { WhatsappSendError, type WhatsappSender } from './graph.ts'
import { plainText, templateOf, toGraph, type Outgoing } from './messages.ts'
import type { WhatsappQueries } from './queries.ts'
import { chatQueue, WHATSAPP_SEND_TASK } from './tasks.ts'

/** Free-form messages may follow a customer's message for 24 hours; after that only templates. */
const WINDOW_HOURS = 24

export interface OutboxDeps {
  queries: WhatsappQueries
  queue: Queue
  sender: WhatsappSender
  env: Env
  log: Logger
}

/** The bot's and the admins' messages out: written and queued in the caller's transaction, sent by the queue in order. */
export function createOutbox(deps: OutboxDeps) {
  const { queries, queue, sender, env, log } = deps

  /** Writes the bot's (or an admin's) messages and queues their sending, in the caller's transaction; in order, one job. */
  async function say(waId: string, messages: Outgoing[], t: Transaction, by: 'bot' | 'admin' = 'bot'): Promise<void> {
    if (!messages.length) return
    const ids: number[] = []
    for (const m of messages) ids.push(await queries.insertOutgoing(waId, m, by, t))
    await queue.enqueue(WHATSAPP_SEND_TASK, { ids }, { transaction: t, jobKey: `wa:${ids[0]}`, queueName: chatQueue(waId, 'out'), maxAttempts: 8 })
  }

  /** The queued send of a chat's messages, in order. A message already sent is skipped (a retried job). */
  async function runSend(ids: number[]): Promise<void> {
    for (const id of ids) {
      const row = await queries.sendable(id, WINDOW_HOURS)
      if (!row || row.status !== 'queued') continue
      const wire = row.inWindow
        ? toGraph(row.waId, row.body)
        : templateOf(row.waId, plainText(row.body), { name: env.WHATSAPP_TEMPLATE_NAME, language: env.WHATSAPP_TEMPLATE_LANGUAGE })
      try {
        const { wamid } = await sender.send(wire)
        await queries.markSent(id, wamid)
      } catch (err) {
        if (err instanceof WhatsappSendError && !err.retry) {
          log.warn({ err: { message: err.message }, id }, 'WhatsApp message refused')
          await queries.markFailed(id, err.message.slice(0, 500))
          continue
        }
        throw err
      }
    }
  }

  /** The receipt of a WhatsApp order's delivery, written with the status change (its transaction). */
  async function onDeliveryChange(
    order: { id: number; network: string; data_size_mb: number; recipient_number: string; payment_transaction_id?: string | null },
    to: string,
    t: Transaction
  ): Promise<void> {
    const waId = await queries.chatOfOrder(order.id, t)
    if (!waId) return
    const what = `${formatSize(order.data_size_mb)} ${NETWORK_LABEL[order.network] ?? order.network} to ${order.recipient_number}`
    const ref = String(order.payment_transaction_id ?? '').slice(-8)
    const text =
      to === 'DELIVERED'
        ? `Delivered: ${what} (ref ${ref}). Thank you for buying with us!`
        : `We could not deliver ${what} (ref ${ref}) yet. Our team is on it.`
    await say(waId, [{ type: 'text', text }], t)
  }

  return { say, runSend, onDeliveryChange }
}

export type Outbox = ReturnType<typeof createOutbox>
