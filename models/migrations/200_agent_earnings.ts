import type { MigrationFn } from '../migrate.ts'

// An agent's shop earnings (margins) and what is paid out of them, beside the wallet the agent
// buys with. ADR 0020. The same wallets row carries both balances, so one row lock orders every
// movement of an agent's money, whichever balance it touches.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- May go below zero: a refund of a delivered shop order takes its margin back even after a payout;
-- the next margins fill the hole. Payouts never take more than is there (the service's check).
ALTER TABLE wallets ADD COLUMN earnings_pesewas BIGINT NOT NULL DEFAULT 0;

CREATE TABLE earnings_entries (
  id                    BIGSERIAL PRIMARY KEY,
  agent_id              INTEGER NOT NULL REFERENCES agents(id) ON DELETE RESTRICT,
  type                  TEXT NOT NULL CHECK (type IN ('MARGIN','MARGIN_REVERSAL','PAYOUT','PAYOUT_RETURN','ADJUSTMENT')),
  -- signed: credits > 0, debits < 0
  amount_pesewas        BIGINT NOT NULL CHECK (amount_pesewas <> 0),
  balance_after_pesewas BIGINT NOT NULL,
  reason                TEXT NOT NULL,
  order_id              INTEGER REFERENCES orders(id) ON DELETE RESTRICT,
  -- the payout this entry holds or returns (the payouts table references back in its own migration)
  payout_id             BIGINT,
  actor_user_id         INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK ((type IN ('MARGIN','PAYOUT_RETURN') AND amount_pesewas > 0)
      OR (type IN ('MARGIN_REVERSAL','PAYOUT') AND amount_pesewas < 0)
      OR type = 'ADJUSTMENT')
);
-- Fences behind the row lock: one margin and one reversal per order, one hold and one return per payout.
CREATE UNIQUE INDEX earnings_entries_order_type_key ON earnings_entries (order_id, type) WHERE order_id IS NOT NULL;
CREATE UNIQUE INDEX earnings_entries_payout_type_key ON earnings_entries (payout_id, type) WHERE payout_id IS NOT NULL;
CREATE INDEX earnings_entries_agent_idx ON earnings_entries (agent_id, created_at DESC, id DESC);

CREATE FUNCTION earnings_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'earnings entries cannot be deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- the only change allowed: the actor link going to NULL when that user is deleted
  IF (NEW.id, NEW.agent_id, NEW.type, NEW.amount_pesewas, NEW.balance_after_pesewas, NEW.reason, NEW.order_id, NEW.payout_id, NEW.created_at)
       IS DISTINCT FROM (OLD.id, OLD.agent_id, OLD.type, OLD.amount_pesewas, OLD.balance_after_pesewas, OLD.reason, OLD.order_id, OLD.payout_id, OLD.created_at)
     OR (NEW.actor_user_id IS NOT NULL AND NEW.actor_user_id IS DISTINCT FROM OLD.actor_user_id) THEN
    RAISE EXCEPTION 'earnings entries cannot be edited' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $fn$;
CREATE TRIGGER earnings_entries_no_update BEFORE UPDATE ON earnings_entries FOR EACH ROW EXECUTE FUNCTION earnings_entries_append_only();
CREATE TRIGGER earnings_entries_no_delete BEFORE DELETE ON earnings_entries FOR EACH ROW EXECUTE FUNCTION earnings_entries_append_only();
`)
}
