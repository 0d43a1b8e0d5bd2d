import { useRef, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { joinInputs, newSessionId, readReply, SCREEN_LIMIT } from './phone.ts'

interface Hop {
  sent: string
  body: string
  ms: number
}

interface HopResponse {
  status: number
  response: string
  end: boolean
  ms: number
}

const why = (err: unknown) => (err instanceof ApiError ? err.message : String(err))

export default function Page() {
  const toast = useToast()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('*920*44#')
  const [session, setSession] = useState<string | null>(null)
  const [inputs, setInputs] = useState<string[]>([])
  const [screen, setScreen] = useState<{ end: boolean; text: string; raw: string } | null>(null)
  const [answer, setAnswer] = useState('')
  const [busy, setBusy] = useState(false)
  const [log, setLog] = useState<Hop[]>([])
  const answerRef = useRef<HTMLInputElement>(null)
  const pinScreen = !!screen && !screen.end && /\bPIN\b/.test(screen.text)

  async function hop(sessionId: string, next: string[], sent: string) {
    setBusy(true)
    try {
      const r = await api<HopResponse>('/api/ussd-simulator/hop', {
        body: { sessionId, phoneNumber: phone.trim(), serviceCode: code.trim(), text: joinInputs(next) },
        fallbackError: 'The USSD endpoint did not answer'
      })
      const reply = readReply(r.response)
      setInputs(next)
      setScreen({ ...reply, raw: r.response })
      setLog((l) => [{ sent, body: r.response, ms: r.ms }, ...l].slice(0, 30))
      if (reply.end) setSession(null)
      else setTimeout(() => answerRef.current?.focus(), 0)
    } catch (err) {
      toast(why(err), 'error')
    } finally {
      setBusy(false)
    }
  }

  function dial(e: FormEvent) {
    e.preventDefault()
    if (!/^\+?\d{9,15}$/.test(phone.trim())) {
      toast('Enter a valid phone number', 'error')
      return
    }
    const id = newSessionId()
    setSession(id)
    setAnswer('')
    void hop(id, [], `Dial ${code.trim() || '(code)'}`)
  }

  function send(e: FormEvent) {
    e.preventDefault()
    if (!session) return
    const value = answer
    setAnswer('')
    // The PIN never shows in the log.
    void hop(session, [...inputs, value], value === '' ? '(empty)' : pinScreen ? '****' : value)
  }

  function hangUp() {
    setSession(null)
    setScreen(null)
    setInputs([])
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 720 }}>
        <h1 className="title">USSD Simulator</h1>
        <p className="subtitle is-6">
          Plays an agent&apos;s phone against the real USSD endpoint (Africa&apos;s Talking format: every answer so far is sent again, joined by <code>*</code>
          ). After a purchase, approve the mobile-money prompt on the payment simulator&apos;s phone.
        </p>

        <form className="box" onSubmit={dial} aria-label="Dial">
          <div className="columns is-mobile is-multiline">
            <div className="column is-12-mobile is-6-tablet">
              <div className="field">
                <label className="label" htmlFor="sim-phone">
                  Phone number
                </label>
                <div className="control">
                  <input
                    id="sim-phone"
                    className="input"
                    inputMode="tel"
                    autoComplete="off"
                    placeholder="0241234567"
                    value={phone}
                    onChange={(e) => setPhone(e.target.value.replace(/[^\d+]/g, '').slice(0, 15))}
                    disabled={!!session}
                  />
                </div>
              </div>
            </div>
            <div className="column is-12-mobile is-6-tablet">
              <div className="field">
                <label className="label" htmlFor="sim-code">
                  USSD code
                </label>
                <div className="control">
                  <input id="sim-code" className="input" value={code} onChange={(e) => setCode(e.target.value.slice(0, 30))} disabled={!!session} />
                </div>
              </div>
            </div>
          </div>
          <div className="buttons">
            <button type="submit" className={`button is-primary${busy && !screen ? ' is-loading' : ''}`} disabled={busy || !!session}>
              {screen?.end ? 'Dial again' : 'Dial'}
            </button>
            {session ? (
              <button type="button" className="button" onClick={hangUp}>
                Hang up
              </button>
            ) : null}
          </div>
        </form>

        {screen ? (
          <div className="box" data-testid="ussd-phone">
            <div
              role="status"
              aria-live="polite"
              data-testid="ussd-screen"
              className="has-background-dark has-text-light p-4 mb-3"
              style={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', borderRadius: 8, minHeight: '8rem', overflowWrap: 'anywhere' }}>
              {screen.text}
            </div>
            {screen.end && /payment prompt/i.test(screen.text) ? (
              <p className="mb-3">
                <a
                  className="button is-small is-link is-light"
                  href={`/simulator/phone?phone=${encodeURIComponent(phone.replace(/^\+?233/, '0'))}`}
                  target="_blank"
                  rel="noopener noreferrer">
                  Open the payer&apos;s phone (payment simulator)
                </a>
              </p>
            ) : null}
            <p className="is-size-7 mb-3">
              {screen.end ? <span className="tag is-light mr-2">Session ended</span> : <span className="tag is-info is-light mr-2">Waiting for input</span>}
              {screen.raw.length}/{SCREEN_LIMIT} characters
            </p>
            {!screen.end && session ? (
              <form onSubmit={send} aria-label="Answer">
                <div className="field has-addons">
                  <div className="control is-expanded">
                    <label className="is-sr-only" htmlFor="sim-answer">
                      Your answer
                    </label>
                    <input
                      id="sim-answer"
                      ref={answerRef}
                      className="input"
                      autoComplete="off"
                      inputMode="numeric"
                      placeholder="Type your answer"
                      value={answer}
                      onChange={(e) => setAnswer(e.target.value.slice(0, 60))}
                      type={pinScreen ? 'password' : 'text'}
                    />
                  </div>
                  <div className="control">
                    <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
                      Send
                    </button>
                  </div>
                </div>
              </form>
            ) : null}
          </div>
        ) : null}

        {log.length ? (
          <details className="box">
            <summary className="has-text-weight-semibold">Exchange log ({log.length})</summary>
            <ol className="mt-3" reversed>
              {log.map((h, i) => (
                <li key={log.length - i} className="mb-2">
                  <span className="tag mr-2">{h.sent}</span>
                  <span className="is-size-7">{h.ms} ms</span>
                  <pre className="is-size-7 mt-1" style={{ whiteSpace: 'pre-wrap' }}>
                    {h.body}
                  </pre>
                </li>
              ))}
            </ol>
          </details>
        ) : null}
      </div>
    </section>
  )
}
