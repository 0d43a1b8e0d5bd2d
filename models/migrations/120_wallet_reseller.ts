import type { MigrationFn } from '../migrate.ts'

// The agent wallet (a balance per agent and its append-only ledger), wallet top-ups and
// wallet-paid orders as payments, and the reseller API (keys, idempotency, agent webhooks). ADR 0014.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_purpose_check;
ALTER TABLE payments ADD CONSTRAINT payments_purpose_check CHECK (purpose IN ('data','afa','agent_fee','wallet_topup'));
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_method_check;
ALTER TABLE payments ADD CONSTRAINT payments_method_check CHECK (method IN ('momo','card','wallet'));

-- The balance the ledger adds up to, changed only in the transaction that appends its entry.
CREATE TABLE wallets (
  agent_id        INTEGER PRIMARY KEY REFERENCES agents(id) ON DELETE RESTRICT,
  balance_pesewas BIGINT NOT NULL DEFAULT 0 CHECK (balance_pesewas >= 0),
  updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE wallet_entries (
  id                     BIGSERIAL PRIMARY KEY,
  agent_id               INTEGER NOT NULL REFERENCES agents(id) ON DELETE RESTRICT,
  type                   TEXT NOT NULL CHECK (type IN ('TOPUP','ORDER','REFUND','ADJUSTMENT')),
  -- signed: credits > 0, debits < 0
  amount_pesewas         BIGINT NOT NULL CHECK (amount_pesewas <> 0),
  balance_after_pesewas  BIGINT NOT NULL CHECK (balance_after_pesewas >= 0),
  reason                 TEXT NOT NULL,
  actor_user_id          INTEGER REFERENCES users(id) ON DELETE SET NULL,
  payment_transaction_id TEXT,
  order_id               INTEGER REFERENCES orders(id) ON DELETE RESTRICT,
  created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK ((type IN ('TOPUP','REFUND') AND amount_pesewas > 0) OR (type = 'ORDER' AND amount_pesewas < 0) OR type = 'ADJUSTMENT')
);
-- Second fences behind the services' row lock: one debit and one refund per order, one credit per top-up payment.
CREATE UNIQUE INDEX wallet_entries_order_type_key ON wallet_entries (order_id, type) WHERE order_id IS NOT NULL;
CREATE UNIQUE INDEX wallet_entries_topup_key ON wallet_entries (payment_transaction_id) WHERE type = 'TOPUP';
CREATE INDEX wallet_entries_agent_idx ON wallet_entries (agent_id, created_at DESC, id DESC);

CREATE FUNCTION wallet_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'wallet entries cannot be deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- the only change allowed: the actor link going to NULL when that user is deleted
  IF (NEW.id, NEW.agent_id, NEW.type, NEW.amount_pesewas, NEW.balance_after_pesewas, NEW.reason, NEW.payment_transaction_id, NEW.order_id, NEW.created_at)
       IS DISTINCT FROM (OLD.id, OLD.agent_id, OLD.type, OLD.amount_pesewas, OLD.balance_after_pesewas, OLD.reason, OLD.payment_transaction_id, OLD.order_id, OLD.created_at)
     OR (NEW.actor_user_id IS NOT NULL AND NEW.actor_user_id IS DISTINCT FROM OLD.actor_user_id) THEN
    RAISE EXCEPTION 'wallet entries cannot be edited' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $fn$;
CREATE TRIGGER wallet_entries_no_update BEFORE UPDATE ON wallet_entries FOR EACH ROW EXECUTE FUNCTION wallet_entries_append_only();
CREATE TRIGGER wallet_entries_no_delete BEFORE DELETE ON wallet_entries FOR EACH ROW EXECUTE FUNCTION wallet_entries_append_only();

-- Reseller API keys: only a SHA-256 of the (high-entropy) key is kept; the prefix identifies it to people.
CREATE TABLE api_keys (
  id           SERIAL PRIMARY KEY,
  agent_id     INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  prefix       TEXT NOT NULL,
  key_hash     TEXT NOT NULL UNIQUE,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at TIMESTAMPTZ,
  revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_keys_agent_idx ON api_keys (agent_id, created_at DESC);

-- One row per (agent, Idempotency-Key), written in the transaction that places the order.
CREATE TABLE idempotency_keys (
  agent_id     INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  order_id     INTEGER REFERENCES orders(id) ON DELETE SET NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Where an agent's software hears about its orders, and the secret the webhooks are signed with.
ALTER TABLE agents ADD COLUMN webhook_url TEXT, ADD COLUMN webhook_secret TEXT;
`)
}
