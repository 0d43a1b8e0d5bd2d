import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { Recipients, type AgentOption } from './Recipients.tsx'
import { WhatsappChats } from './WhatsappChats.tsx'

const PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT']
const EMPTY = { title: '', message: '', priority: 'NORMAL' }

export default function Page() {
  const toast = useToast()
  const [agents, setAgents] = useState<AgentOption[]>([])
  const [loading, setLoading] = useState(true)
  const [open, setOpen] = useState(false)
  const [form, setForm] = useState(EMPTY)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [sending, setSending] = useState(false)

  useEffect(() => {
    api<{ agents: AgentOption[] }>('/api/admin/agents')
      .then((r) => setAgents(r.agents))
      .catch(() => toast('Failed to load agents', 'error'))
      .finally(() => setLoading(false))
  }, [toast])

  const approved = agents.filter((a) => a.agent.approved).length
  const valid = form.title.trim() !== '' && form.message.trim() !== '' && selected.size > 0

  async function send(e: FormEvent) {
    e.preventDefault()
    if (!valid || sending) return
    setSending(true)
    try {
      await api('/api/admin-messages', {
        body: { title: form.title.trim(), message: form.message.trim(), priority: form.priority, recipientIds: [...selected] }
      })
      window.alert('Message sent successfully!')
      setForm(EMPTY)
      setSelected(new Set())
      setOpen(false)
    } catch (err) {
      window.alert(`Failed to send message: ${err instanceof ApiError && err.message ? err.message : 'Unknown error'}`)
    } finally {
      setSending(false)
    }
  }

  const stat = (label: string, value: number) => (
    <div className="column is-4">
      <div className="box has-text-centered px-2">
        <p className="is-size-7 has-text-weight-semibold">{label}</p>
        <p className="stat-value" data-stat={label}>
          {loading ? '…' : value}
        </p>
      </div>
    </div>
  )

  return (
    <section>
      <div className="is-flex is-flex-wrap-wrap is-justify-content-space-between is-align-items-center mb-4" style={{ gap: '.75rem' }}>
        <div>
          <div>
            <h1 className="title">Send Message</h1>
            <p className="subtitle is-6">Write to your agents; they read it in their portal</p>
          </div>
        </div>
        <div className="buttons mb-0">
          <a className="button" href="/admin/messaging/history">
            Message History
          </a>
          <button className="button is-primary" aria-expanded={open} aria-controls="new-message" onClick={() => setOpen(!open)}>
            {open ? 'Close' : 'New Message'}
          </button>
        </div>
      </div>

      <div className="columns is-mobile is-multiline">
        {stat('Total Agents', agents.length)}
        {stat('Approved Agents', approved)}
        {stat('Pending Agents', agents.length - approved)}
      </div>

      {open ? (
        <form className="box" id="new-message" onSubmit={send} noValidate aria-label="New Message">
          <h2 className="title is-5">New Message</h2>
          <div className="columns">
            <div className="column is-two-thirds">
              <div className="field">
                <label className="label" htmlFor="msg-title">
                  Title
                </label>
                <input
                  id="msg-title"
                  className="input"
                  maxLength={200}
                  value={form.title}
                  onChange={(e) => setForm({ ...form, title: e.target.value })}
                  required
                />
              </div>
            </div>
            <div className="column">
              <div className="field">
                <label className="label" htmlFor="msg-priority">
                  Priority
                </label>
                <div className="select is-fullwidth">
                  <select id="msg-priority" value={form.priority} onChange={(e) => setForm({ ...form, priority: e.target.value })}>
                    {PRIORITIES.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            </div>
          </div>
          <div className="field">
            <label className="label" htmlFor="msg-body">
              Message
            </label>
            <textarea
              id="msg-body"
              className="textarea"
              rows={5}
              maxLength={5000}
              value={form.message}
              onChange={(e) => setForm({ ...form, message: e.target.value })}
              required
            />
          </div>
          <Recipients agents={agents} selected={selected} onChange={setSelected} disabled={sending} />
          <button type="submit" className={`button is-primary${sending ? ' is-loading' : ''}`} disabled={!valid || sending}>
            Send Message
          </button>
          {!valid ? <p className="help">A title, a message and at least one recipient are needed.</p> : null}
        </form>
      ) : null}

      <WhatsappChats />
    </section>
  )
}
