import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import { signBody } from '../../server/services/whatsapp/webhook.ts'
import { graphEnv, inbound, startFakeGraph, type FakeGraph } from '../fakes/whatsapp-graph.ts'
import { bootInstance } from './instance.ts'

export const WA_APP_SECRET = 'wa-app-secret-for-tests'
type Said = { text: string } | { replyId: string; title: string; kind?: 'button_reply' | 'list_reply' }

/** An instance with a WhatsApp account whose Graph API is the local fake, and a customer who chats with it. */
export async function whatsappInstance(env: Record<string, unknown> = {}) {
  const graph: FakeGraph = await startFakeGraph()
  const wa: Running = await bootInstance({ ...graphEnv(graph, WA_APP_SECRET), ...env })
  let n = 0
  const post = (body: unknown, signature?: string) => {
    const raw = JSON.stringify(body)
    return fetch(`${wa.url}/api/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature ?? signBody(raw, WA_APP_SECRET) },
      body: raw
    })
  }
  /** The customer sends a message; the answers go out through the queue; returns what they saw. */
  const say = async (from: string, message: Said) => {
    const before = graph.sent.length
    const res = await post(inbound(from, { id: `wamid.IN${++n}`, ...message }))
    expect(res.status).to.equal(200)
    await wa.services.queue.drain()
    return graph.sent.slice(before)
  }
  return {
    graph,
    wa,
    post,
    say,
    async stop() {
      await wa.stop()
      await graph.close()
    }
  }
}

/** The words of each sent message as the customer reads them. */
export const words = (sent: FakeGraph['sent']) => sent.map((m) => (m.type === 'text' ? m.body.text.body : m.body.interactive.body.text))
