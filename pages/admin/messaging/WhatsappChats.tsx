import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

interface Chat {
  waId: string
  name: string | null
  phone: string
}
interface Message {
  id: number
  direction: 'in' | 'out'
  sentBy: string
  text: string
}

/** WhatsApp chats a customer handed to a person ("Talk to a person"): read, answer, hand back to the bot. */
export function WhatsappChats() {
  const toast = useToast()
  const [chats, setChats] = useState<Chat[] | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  const [messages, setMessages] = useState<Message[]>([])
  const [reply, setReply] = useState('')
  const [busy, setBusy] = useState(false)

  const loadChats = useCallback(() => {
    api<{ chats: Chat[] }>('/api/whatsapp/chats')
      .then((r) => setChats(r.chats))
      .catch(() => setChats([]))
  }, [])
  const loadMessages = useCallback((waId: string) => {
    api<{ messages: Message[] }>(`/api/whatsapp/chats/${waId}`)
      .then((r) => setMessages(r.messages))
      .catch(() => setMessages([]))
  }, [])
  useEffect(loadChats, [loadChats])

  function show(waId: string) {
    setOpen(waId)
    setMessages([])
    loadMessages(waId)
  }

  async function act(path: string, body: unknown, done: string) {
    setBusy(true)
    try {
      await api(path, { body })
      toast(done, 'success')
      return true
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Could not reach the server', 'error')
      return false
    } finally {
      setBusy(false)
    }
  }

  async function send(e: FormEvent) {
    e.preventDefault()
    if (!open || !reply.trim()) return
    if (await act(`/api/whatsapp/chats/${open}/reply`, { text: reply.trim() }, 'Reply sent')) {
      setReply('')
      loadMessages(open)
    }
  }

  async function release() {
    if (open && (await act(`/api/whatsapp/chats/${open}/release`, {}, 'Chat handed back to the bot'))) {
      setOpen(null)
      loadChats()
    }
  }

  return (
    <div className="box" aria-labelledby="wa-chats-title">
      <h2 className="title is-5" id="wa-chats-title">
        WhatsApp chats waiting for a person
      </h2>
      {chats === null ? (
        <p>Loading…</p>
      ) : chats.length === 0 ? (
        <p className="has-text-grey">No customer is waiting.</p>
      ) : (
        <div className="buttons">
          {chats.map((c) => (
            <button
              key={c.waId}
              type="button"
              className={`button${open === c.waId ? ' is-link' : ''}`}
              aria-pressed={open === c.waId}
              onClick={() => show(c.waId)}>
              {c.name ? `${c.name} (${c.phone})` : c.phone}
            </button>
          ))}
        </div>
      )}
      {open ? (
        <div data-testid="wa-admin-chat">
          <ul className="mb-3" aria-label="Messages">
            {messages.map((m) => (
              <li key={m.id} className={`py-1 ${m.direction === 'in' ? '' : 'has-text-right'}`} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <strong>{m.direction === 'in' ? 'Customer' : m.sentBy === 'admin' ? 'You' : 'Bot'}:</strong> {m.text}
              </li>
            ))}
          </ul>
          <form onSubmit={send} aria-label="Reply on WhatsApp">
            <div className="field">
              <label className="label" htmlFor="wa-reply">
                Reply
              </label>
              <textarea id="wa-reply" className="textarea" rows={2} maxLength={4096} value={reply} onChange={(e) => setReply(e.target.value)} />
            </div>
            <div className="buttons">
              <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy || !reply.trim()}>
                Send reply
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => void release()}>
                Hand back to the bot
              </button>
            </div>
          </form>
        </div>
      ) : null}
    </div>
  )
}
