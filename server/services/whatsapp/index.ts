import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import { publicOrigin } from '../../lib/origin.ts'
import type { Queue } from '../queue/index.ts'
import { createGraphSender, createSimulatorSender, type WhatsappSender } from './graph.ts'
import { createHandOff } from './hand-off.ts'
import { createInbound } from './inbound.ts'
import { createOutbox } from './outbox.ts'
import { createPayLinks } from './pay-link.ts'
import { createChatPorts, type PortDeps } from './ports.ts'
import { createWhatsappQueries } from './queries.ts'
import { createChatSimulator } from './simulator.ts'
import { WHATSAPP_CHAT_TASK, WHATSAPP_SEND_TASK } from './tasks.ts'
import { createTurns } from './turns.ts'

export type { PayLinkInput, PayLinkView } from './pay-link.ts'
export type { SimulateInput } from './simulator.ts'

type Deps = Omit<PortDeps, 'origin' | 'queries'> & {
  sequelize: Sequelize
  env: Env
  queue: Queue
  sender?: WhatsappSender
}

export type WhatsappService = ReturnType<typeof createWhatsappService>

/**
 * WhatsApp ordering (docs/whatsapp.md, ADR 0042): Meta's webhook in (signature checked, each message
 * id handled once), the conversation's state in whatsapp_chats, the bot's answers out through the
 * queue, and a receipt when the order is delivered. Orders go through services.orders like every channel.
 */
export function createWhatsappService(deps: Deps) {
  const { env, log, settings, queue } = deps
  const queries = createWhatsappQueries(deps.sequelize)
  const sender =
    deps.sender ??
    (env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? createGraphSender({
          graphUrl: env.WHATSAPP_GRAPH_URL,
          version: env.WHATSAPP_API_VERSION,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
          token: env.WHATSAPP_ACCESS_TOKEN
        })
      : createSimulatorSender())
  // A job has no request to take the address from: without PUBLIC_URL, this instance's own (development).
  const portsFor = createChatPorts({ ...deps, queries, origin: publicOrigin(env.PUBLIC_URL, { host: `localhost:${env.PORT}` }) })
  const outbox = createOutbox({ queries, queue, sender, env, log })
  const { runChat } = createTurns({ queries, settings, say: outbox.say, portsFor })
  const inbound = createInbound({ queries, queue, env })
  const payLinks = createPayLinks({ queries, orders: deps.orders })

  return {
    sender: sender.name,
    /** No WhatsApp account configured: the simulator page plays the customer. */
    simulated: sender.name === 'simulator',
    ...inbound,
    runSend: outbox.runSend,
    onDeliveryChange: outbox.onDeliveryChange,
    ...payLinks,
    ...createHandOff({ queries, say: outbox.say }),
    simulate: createChatSimulator({ queries, receive: inbound.receive, runChat, runSend: outbox.runSend }),

    registerTasks(): void {
      queue.register<{ ids: unknown }>(WHATSAPP_SEND_TASK, async (p) =>
        outbox.runSend((Array.isArray(p.ids) ? p.ids : []).map(Number).filter(Number.isInteger))
      )
      queue.register<{ waId: unknown }>(WHATSAPP_CHAT_TASK, async (p) => runChat(String(p.waId ?? '')))
    }
  }
}
