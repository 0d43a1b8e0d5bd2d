import type { MigrationFn } from '../migrate.ts'

// WhatsApp ordering (ADR 0042). One row per chat holds the conversation's state, so any instance can
// answer the next message; every message in and out is a row of whatsapp_messages: an incoming one's
// WhatsApp id is unique (a redelivered webhook inserts nothing and is answered once), an outgoing one
// is sent by a queued job and its status follows Meta's status callbacks. whatsapp_orders ties an
// order to the chat that placed it, for the receipts.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE whatsapp_chats (
  wa_id            TEXT PRIMARY KEY,
  name             TEXT,
  state            JSONB NOT NULL DEFAULT '{}'::jsonb,
  handed_off       BOOLEAN NOT NULL DEFAULT false,
  last_inbound_at  TIMESTAMPTZ,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_chats_handed_off ON whatsapp_chats (updated_at DESC) WHERE handed_off;

CREATE TABLE whatsapp_messages (
  id           BIGSERIAL PRIMARY KEY,
  wa_id        TEXT NOT NULL,
  direction    TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  wamid        TEXT,
  body         JSONB NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('received', 'queued', 'sent', 'delivered', 'read', 'failed')),
  error        TEXT,
  sent_by      TEXT NOT NULL DEFAULT 'bot' CHECK (sent_by IN ('customer', 'bot', 'admin')),
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX whatsapp_messages_wamid ON whatsapp_messages (wamid) WHERE wamid IS NOT NULL;
CREATE INDEX whatsapp_messages_chat ON whatsapp_messages (wa_id, id);

CREATE TABLE whatsapp_orders (
  order_id   INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  wa_id      TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_orders_chat ON whatsapp_orders (wa_id, order_id DESC);
`)
}
