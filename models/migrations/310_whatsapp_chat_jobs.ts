import type { MigrationFn } from '../migrate.ts'

// The webhook only records an incoming message; a queued job per chat answers it later (ADR 0042).
// handled_at marks the messages that job has answered, in the transaction that wrote the answers, so
// a job run again skips them. Messages stored before this change were answered at once: marked handled.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE whatsapp_messages ADD COLUMN handled_at TIMESTAMPTZ;
UPDATE whatsapp_messages SET handled_at = created_at WHERE direction = 'in';
CREATE INDEX whatsapp_messages_unhandled ON whatsapp_messages (wa_id, id) WHERE direction = 'in' AND handled_at IS NULL;
`)
}
