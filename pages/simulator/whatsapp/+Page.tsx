import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'

interface Choice {
  id: string
  title: string
  description?: string
}
interface Message {
  id: number
  direction: 'in' | 'out'
  sentBy: string
  status: string
  text: string
  choices: Choice[]
}
const POLL_MS = 2000
const why = (err: unknown) => (err instanceof ApiError ? err.message : 'The bot did not answer')

/** Plays the customer's WhatsApp: type or tap, and the real bot (through the same webhook code) answers. */
export default function Page() {
  const toast = useToast()
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: { siteName: string } }
  const [phone, setPhone] = useState('')
  const [chat, setChat] = useState<string | null>(null)
  const [messages, setMessages] = useState<Message[]>([])
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const endRef = useRef<HTMLDivElement>(null)

  const load = useCallback(async () => {
    if (!chat) return
    try {
      setMessages((await api<{ messages: Message[] }>(`/api/whatsapp/simulator/messages?from=${chat}`)).messages)
    } catch {
      // The next poll tries again.
    }
  }, [chat])

  useEffect(() => {
    if (!chat) return
    void load()
    const t = setInterval(load, POLL_MS)
    return () => clearInterval(t)
  }, [chat, load])

  useEffect(() => {
    // In braces: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
    endRef.current?.scrollIntoView?.({ block: 'end' })
  }, [messages.length])

  async function send(body: { text?: string; replyId?: string; replyTitle?: string }) {
    if (!chat) return
    setBusy(true)
    try {
      const r = await api<{ messages: Message[] }>('/api/whatsapp/simulator/messages', { body: { from: chat, name: 'Simulator', ...body } })
      setMessages(r.messages)
      if (body.text) setText('')
    } catch (err) {
      toast(why(err), 'error')
    } finally {
      setBusy(false)
    }
  }

  function start(e: FormEvent) {
    e.preventDefault()
    const digits = phone.replace(/\D/g, '')
    if (digits.length < 9) return void toast('Please enter a valid phone number', 'error')
    setChat(digits.startsWith('0') ? `233${digits.slice(1)}` : digits)
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    if (text.trim()) void send({ text: text.trim() })
  }

  // Only the newest bot message's buttons can be tapped, as in the app once the chat has moved on.
  const lastOut = [...messages].reverse().find((m) => m.direction === 'out')
  return (
    <section className="section px-3">
      <div className="container" style={{ maxWidth: 560 }}>
        <h1 className="title">WhatsApp Simulator</h1>
        <p className="subtitle is-6">
          Play a customer chatting with {pc.data.siteName} on WhatsApp. No WhatsApp account is configured, so the bot's messages appear here.
        </p>
        {!chat ? (
          <form className="box" onSubmit={start} aria-label="Start a chat">
            <div className="field">
              <label className="label" htmlFor="wa-phone">
                Customer's WhatsApp number
              </label>
              <div className="control">
                <input
                  id="wa-phone"
                  className="input"
                  inputMode="tel"
                  autoComplete="off"
                  placeholder="0241234567"
                  value={phone}
                  onChange={(e) => setPhone(e.target.value.slice(0, 16))}
                />
              </div>
            </div>
            <button type="submit" className="button is-primary">
              Start chat
            </button>
          </form>
        ) : (
          <div className="box p-3" data-testid="wa-chat">
            <p className="is-size-7 mb-2">
              Chat with <strong>+{chat}</strong>.{' '}
              <a href={`/simulator/phone?phone=0${chat.slice(3)}`} target="_blank" rel="noopener noreferrer">
                Open the payment simulator's phone
              </a>
            </p>
            <div role="log" aria-live="polite" aria-label="Messages" style={{ maxHeight: '60vh', overflowY: 'auto' }}>
              {messages.length === 0 ? <p className="has-text-grey">Say "hi" to start.</p> : null}
              {messages.map((m) => (
                <div key={m.id} className={`is-flex mb-2 ${m.direction === 'in' ? 'is-justify-content-flex-end' : 'is-justify-content-flex-start'}`}>
                  <div
                    className={`notification py-2 px-3 mb-0 ${m.direction === 'in' ? 'is-success is-light' : 'is-light'}`}
                    style={{ maxWidth: '85%', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    data-direction={m.direction}>
                    <span className="is-sr-only">{m.direction === 'in' ? 'You: ' : m.sentBy === 'admin' ? 'Team: ' : 'Bot: '}</span>
                    <span data-testid="wa-text">{m.text}</span>
                    {m.choices.length ? (
                      <div className="buttons are-small mt-2 mb-0">
                        {m.choices.map((c) => (
                          <button
                            key={c.id}
                            type="button"
                            className="button is-link is-light"
                            disabled={busy || m !== lastOut}
                            onClick={() => void send({ replyId: c.id, replyTitle: c.title })}>
                            {c.title}
                            {c.description ? ` (${c.description})` : ''}
                          </button>
                        ))}
                      </div>
                    ) : null}
                  </div>
                </div>
              ))}
              <div ref={endRef} />
            </div>
            <form className="mt-3" onSubmit={submit} aria-label="Send a message">
              <div className="field has-addons">
                <div className="control is-expanded">
                  <label className="is-sr-only" htmlFor="wa-text">
                    Message
                  </label>
                  <input
                    id="wa-text"
                    className="input"
                    autoComplete="off"
                    placeholder="Type a message"
                    value={text}
                    onChange={(e) => setText(e.target.value.slice(0, 500))}
                  />
                </div>
                <div className="control">
                  <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
                    Send
                  </button>
                </div>
              </div>
            </form>
          </div>
        )}
      </div>
    </section>
  )
}
