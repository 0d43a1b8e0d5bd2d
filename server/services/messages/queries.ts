import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import type { Priority } from './priority.ts'

// Every raw statement of the messages capability, and the typed camelCase rows they return.

export interface MessageListed {
  id: number
  title: string
  message: string
  priority: Priority
  createdAt: Date
  senderEmail: string | null
  recipientCount: number
  readCount: number
}

export interface RecipientListed {
  id: number
  messageId: number
  userId: number
  isRead: boolean
  readAt: Date | null
  email: string
  name: string | null
}

export interface InboxRow {
  id: number
  messageId: number
  isRead: boolean
  readAt: Date | null
  title: string
  message: string
  priority: string
  createdAt: Date
}

type Raw = Record<string, any>

export function createMessagesQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, bind: unknown[], transaction?: Transaction) =>
    sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction })
  // Named statements and plain rows: the agent dashboard reads the inbox on every request (ADR 0043).
  const run = preparedFor(sequelize)

  return {
    /** Of these users, the agents. */
    async agentUserIds(ids: number[], t: Transaction): Promise<number[]> {
      const rows = await q(`SELECT u.id FROM users u JOIN agents a ON a.user_id = u.id WHERE u.role = 'AGENT' AND u.id = ANY($1::int[])`, [ids], t)
      return rows.map((r) => Number(r.id))
    },

    async addRecipients(messageId: number, userIds: number[], t: Transaction): Promise<void> {
      await sequelize.query(`INSERT INTO admin_message_recipients (message_id, user_id) SELECT $1, unnest($2::int[])`, {
        bind: [messageId, userIds],
        transaction: t
      })
    },

    /** How many messages there are of a priority (null: all). */
    async countMessages(priority: Priority | null): Promise<number> {
      const [row] = await q(`SELECT count(*) AS n FROM admin_messages WHERE ($1::text IS NULL OR priority = $1)`, [priority])
      return Number(row?.n ?? 0)
    },

    /** A page of messages, newest first, with their sender and read counts. */
    async messages(priority: Priority | null, page: { limit: number; offset: number }): Promise<MessageListed[]> {
      const rows = await q(
        `SELECT m.id, m.title, m.message, m.priority, m.created_at, s.email AS sender_email,
           (SELECT count(*) FROM admin_message_recipients r WHERE r.message_id = m.id) AS recipient_count,
           (SELECT count(*) FROM admin_message_recipients r WHERE r.message_id = m.id AND r.is_read) AS read_count
         FROM admin_messages m LEFT JOIN users s ON s.id = m.sender_id
         WHERE ($1::text IS NULL OR m.priority = $1)
         ORDER BY m.created_at DESC, m.id DESC LIMIT $2 OFFSET $3`,
        [priority, page.limit, page.offset]
      )
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        message: r.message,
        priority: r.priority,
        createdAt: new Date(r.created_at),
        senderEmail: r.sender_email ?? null,
        recipientCount: Number(r.recipient_count),
        readCount: Number(r.read_count)
      }))
    },

    /** The first `shown` recipients of each message, in the order they were given. */
    async recipients(messageIds: number[], shown: number): Promise<RecipientListed[]> {
      if (!messageIds.length) return []
      const rows = await q(
        `SELECT * FROM (
           SELECT r.id, r.message_id, r.user_id, r.is_read, r.read_at, u.email, coalesce(a.name, u.name) AS name,
                  row_number() OVER (PARTITION BY r.message_id ORDER BY r.id) AS n
           FROM admin_message_recipients r JOIN users u ON u.id = r.user_id LEFT JOIN agents a ON a.user_id = u.id
           WHERE r.message_id = ANY($1::int[])
         ) x WHERE n <= $2 ORDER BY message_id, id`,
        [messageIds, shown]
      )
      return rows.map((r) => ({
        id: r.id,
        messageId: r.message_id,
        userId: r.user_id,
        isRead: !!r.is_read,
        readAt: r.read_at ? new Date(r.read_at) : null,
        email: r.email,
        name: r.name ?? null
      }))
    },

    /** An agent's copies, newest first. */
    async inbox(userId: number, limit: number): Promise<InboxRow[]> {
      const rows = await run<Raw>(
        `SELECT r.id, r.message_id, r.is_read, r.read_at, m.title, m.message, m.priority, m.created_at
           FROM admin_message_recipients r JOIN admin_messages m ON m.id = r.message_id
          WHERE r.user_id = $1
          ORDER BY m.created_at DESC, r.id DESC
          LIMIT $2`,
        [userId, limit]
      )
      return rows.map((x) => ({
        id: x.id,
        messageId: x.message_id,
        isRead: !!x.is_read,
        readAt: x.read_at ? new Date(x.read_at) : null,
        title: x.title,
        message: x.message,
        priority: x.priority,
        createdAt: new Date(x.created_at)
      }))
    },

    async unread(userId: number): Promise<number> {
      const [row] = await run<{ n: number }>('SELECT count(*)::int AS n FROM admin_message_recipients WHERE user_id = $1 AND is_read = false', [userId])
      return row?.n ?? 0
    }
  }
}
