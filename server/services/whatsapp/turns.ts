import type { SettingsService } from '../settings/index.ts'
import { converse } from './conversation.ts'
import type { Outgoing } from './messages.ts'
import type { Outbox } from './outbox.ts'
import type { ChatPortsFor, TurnEffects } from './ports.ts'
import type { WhatsappQueries } from './queries.ts'

export interface TurnDeps {
  queries: WhatsappQueries
  settings: Pick<SettingsService, 'get'>
  say: Outbox['say']
  portsFor: ChatPortsFor
}

/** A chat's incoming messages answered by the bot, one turn at a time, oldest first. */
export function createTurns(deps: TurnDeps) {
  const { queries, settings, say, portsFor } = deps

  /**
   * The oldest unanswered message of a chat, answered: the conversation runs outside any transaction
   * (its ports read and place on their own), then the message is marked handled with the chat's new
   * state and the answers in one transaction. A message already marked (a job run twice) changes nothing.
   */
  async function answerNext(waId: string): Promise<boolean> {
    const next = await queries.nextUnanswered(waId)
    if (!next) return false
    const text = next.body.text ?? null
    const state = { ...(next.state ?? {}) }
    const effects: TurnEffects = { handOff: false }
    let replies: Outgoing[] = []
    // A chat handed to a person waits for the admin; "menu" brings the bot back.
    const waits = next.handedOff && !/^\s*menu\s*$/i.test(text ?? '')
    const answers = !waits && (await settings.get()).whatsappBotEnabled
    if (answers) replies = await converse(state, { waId, text, replyId: next.body.replyId ?? null }, portsFor(waId, effects))
    await queries.transaction(async (t) => {
      const mine = await queries.markHandled(next.id, t)
      if (!mine || !answers) return
      await queries.saveTurn(waId, { state, back: next.handedOff, handOff: effects.handOff }, t)
      await say(waId, replies, t)
    })
    return true
  }

  /** The queued job of a chat: its messages answered one at a time, oldest first, until none is left. */
  async function runChat(waId: string): Promise<void> {
    for (;;) if (!(await answerNext(waId))) return
  }

  return { runChat }
}
