import type { MigrationFn } from '../migrate.ts'

// Payouts: an agent's verified mobile-money number and the withdrawals from earnings sent
// to it through the gateway's transfers. ADR 0020, '## Payouts'. The money is held by a PAYOUT
// earnings entry written in the transaction that creates the payout; a failure, reversal or rejection
// writes the one PAYOUT_RETURN (both fenced per payout by migration 200's unique index).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE payout_numbers (
  id             SERIAL PRIMARY KEY,
  agent_id       INTEGER NOT NULL REFERENCES agents(id) ON DELETE RESTRICT,
  network        TEXT NOT NULL CHECK (network IN ('MTN','TELECEL','AIRTELTIGO')),
  -- local form 0XXXXXXXXX
  phone          TEXT NOT NULL CHECK (phone ~ '^0[0-9]{9}$'),
  -- as the agent typed it, and as the gateway resolved it (when it could)
  account_name   TEXT NOT NULL,
  resolved_name  TEXT,
  provider       TEXT NOT NULL,
  bank_code      TEXT,
  recipient_code TEXT NOT NULL,
  verified_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  removed_at     TIMESTAMPTZ,
  created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- One number in use per agent; removed ones stay for the payouts that went to them.
CREATE UNIQUE INDEX payout_numbers_active_key ON payout_numbers (agent_id) WHERE removed_at IS NULL;

CREATE TABLE payouts (
  id               BIGSERIAL PRIMARY KEY,
  agent_id         INTEGER NOT NULL REFERENCES agents(id) ON DELETE RESTRICT,
  payout_number_id INTEGER NOT NULL REFERENCES payout_numbers(id) ON DELETE RESTRICT,
  -- what arrives on the phone; the fee is held with it and kept by the shop
  amount_pesewas   BIGINT NOT NULL CHECK (amount_pesewas > 0),
  fee_pesewas      BIGINT NOT NULL DEFAULT 0 CHECK (fee_pesewas >= 0),
  status           TEXT NOT NULL CHECK (status IN ('PENDING_APPROVAL','QUEUED','SENDING','SENT','UNKNOWN','SUCCESS','FAILED','REVERSED','REJECTED')),
  -- the gateway's idempotency key: derived from the id, the same on every retry
  reference        TEXT NOT NULL UNIQUE,
  provider         TEXT NOT NULL,
  transfer_code    TEXT,
  message          TEXT,
  channel          TEXT NOT NULL DEFAULT 'web' CHECK (channel IN ('web','ussd','admin')),
  send_attempts    INTEGER NOT NULL DEFAULT 0,
  retry_of         BIGINT REFERENCES payouts(id) ON DELETE RESTRICT,
  requested_by     INTEGER REFERENCES users(id) ON DELETE SET NULL,
  decided_by       INTEGER REFERENCES users(id) ON DELETE SET NULL,
  decided_at       TIMESTAMPTZ,
  decision_reason  TEXT,
  last_checked_at  TIMESTAMPTZ,
  settled_at       TIMESTAMPTZ,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- A failed payout is sent again at most once, as a new payout with its own hold and reference.
CREATE UNIQUE INDEX payouts_retry_of_key ON payouts (retry_of) WHERE retry_of IS NOT NULL;
CREATE INDEX payouts_agent_idx ON payouts (agent_id, created_at DESC, id DESC);
CREATE INDEX payouts_status_idx ON payouts (status, created_at DESC, id DESC);
-- The payouts whose outcome the gateway still owes us, least recently asked first.
CREATE INDEX payouts_open_idx ON payouts (last_checked_at NULLS FIRST, id) WHERE status IN ('SENDING','SENT','UNKNOWN');

ALTER TABLE earnings_entries ADD CONSTRAINT earnings_entries_payout_fk FOREIGN KEY (payout_id) REFERENCES payouts(id) ON DELETE RESTRICT;
`)
}
