import { useState } from 'react'
import { api } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { InboxItem } from '../../../server/services/messages/inbox.ts'
import { formatDate } from '../_shared/format.ts'

const PRIORITY: Record<string, string> = { LOW: 'is-light', NORMAL: 'is-info', HIGH: 'is-warning', URGENT: 'is-danger' }

/** The admins' messages: opening an unread one marks it read and the count drops (never below 0). */
export function Messages({ initial, unread }: { initial: InboxItem[]; unread: number }) {
  const toast = useToast()
  const [items, setItems] = useState(initial)
  const [count, setCount] = useState(unread)
  const [open, setOpen] = useState<number | null>(null)

  async function toggle(item: InboxItem) {
    setOpen(open === item.messageId ? null : item.messageId)
    if (item.isRead) return
    setItems((list) => list.map((x) => (x.messageId === item.messageId ? { ...x, isRead: true } : x)))
    setCount((c) => Math.max(0, c - 1))
    try {
      const r = await api<{ unreadCount: number }>(`/api/admin-messages/${item.messageId}/read`, { method: 'PATCH' })
      setCount(Math.max(0, r.unreadCount))
    } catch {
      toast('Failed to mark the message as read', 'error')
    }
  }

  return (
    <div className="card mb-4" data-testid="messages">
      <header className="card-header">
        <p className="card-header-title">
          Messages
          <span className={`tag is-rounded ml-2 ${count ? 'is-danger' : 'is-light'}`} data-testid="unread-count" aria-label={`${count} unread`}>
            {count}
          </span>
          <span className="is-size-7 has-text-weight-normal ml-2">unread</span>
        </p>
      </header>
      <div className="card-content">
        {items.length === 0 ? (
          <p>No messages yet.</p>
        ) : (
          <ul>
            {items.map((m) => (
              <li key={m.id} className="mb-2">
                <button
                  className={`button is-fullwidth is-justify-content-space-between${m.isRead ? ' is-light' : ' is-link is-light has-text-weight-bold'}`}
                  style={{ height: 'auto', whiteSpace: 'normal' }}
                  aria-expanded={open === m.messageId}
                  aria-controls={`msg-${m.messageId}`}
                  onClick={() => void toggle(m)}
                  data-testid="message-item">
                  <span className="has-text-left">
                    {!m.isRead ? <span className="tag is-danger is-small mr-2">New</span> : null}
                    {m.message.title}
                  </span>
                  <span className={`tag ${PRIORITY[m.message.priority] ?? 'is-light'}`}>{m.message.priority}</span>
                </button>
                {open === m.messageId ? (
                  <div id={`msg-${m.messageId}`} className="notification is-light mt-1 mb-0">
                    <p className="is-size-7 mb-1">{formatDate(m.message.createdAt)}</p>
                    <p style={{ whiteSpace: 'pre-wrap' }}>{m.message.message}</p>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
