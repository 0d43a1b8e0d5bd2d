import type { MigrationFn } from '../migrate.ts'

// Dealer tiers, one price rule for every channel and sub-agents (ADR 0041).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- Ordered by position (0 first); names are the admin's to change. A tier without a price for a
-- package pays the price of the tier listed before it, then the package's agent price.
CREATE TABLE tiers (
  id                         SERIAL PRIMARY KEY,
  name                       TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 2 AND 40),
  position                   INTEGER NOT NULL UNIQUE CHECK (position >= 0),
  -- delivered sales over the last 30 days that promote an agent to this tier (NULL: never by itself)
  promote_at_pesewas         BIGINT CHECK (promote_at_pesewas IS NULL OR promote_at_pesewas > 0),
  may_invite                 BOOLEAN NOT NULL DEFAULT false,
  -- parents of this tier approve their own sub-agents (no fee, no admin approval)
  parents_approve            BOOLEAN NOT NULL DEFAULT false,
  created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO tiers (name, position, may_invite) VALUES ('Agent', 0, false), ('Super agent', 1, false), ('Dealer', 2, true), ('Super dealer', 3, true);

CREATE TABLE tier_prices (
  tier_id       INTEGER NOT NULL REFERENCES tiers(id) ON DELETE CASCADE,
  package_id    INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
  price_pesewas INTEGER NOT NULL CHECK (price_pesewas > 0),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (tier_id, package_id)
);

-- tier_id NULL: the first tier in the list. One level of sub-agents: a parent has no parent (the service
-- checks it where a link is made; the trigger keeps it true whoever writes).
ALTER TABLE agents
  ADD COLUMN tier_id INTEGER REFERENCES tiers(id) ON DELETE SET NULL,
  ADD COLUMN parent_agent_id INTEGER REFERENCES agents(id) ON DELETE RESTRICT CHECK (parent_agent_id <> id),
  ADD COLUMN invite_code TEXT UNIQUE,
  ADD COLUMN suspended_by_parent_at TIMESTAMPTZ;
CREATE INDEX agents_parent_idx ON agents (parent_agent_id) WHERE parent_agent_id IS NOT NULL;

CREATE FUNCTION agents_one_level() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.parent_agent_id IS NOT NULL AND (
       EXISTS (SELECT 1 FROM agents p WHERE p.id = NEW.parent_agent_id AND p.parent_agent_id IS NOT NULL)
    OR EXISTS (SELECT 1 FROM agents c WHERE c.parent_agent_id = NEW.id)) THEN
    RAISE EXCEPTION 'sub-agents are one level only' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $fn$;
CREATE TRIGGER agents_one_level BEFORE INSERT OR UPDATE OF parent_agent_id ON agents FOR EACH ROW EXECUTE FUNCTION agents_one_level();

-- What a parent's sub-agents pay per package (held between the parent's own price and the ceiling when sold).
CREATE TABLE sub_agent_prices (
  parent_agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  package_id      INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
  price_pesewas   INTEGER NOT NULL CHECK (price_pesewas > 0),
  updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (parent_agent_id, package_id)
);

CREATE TABLE tier_changes (
  id           BIGSERIAL PRIMARY KEY,
  agent_id     INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  from_tier_id INTEGER REFERENCES tiers(id) ON DELETE SET NULL,
  to_tier_id   INTEGER REFERENCES tiers(id) ON DELETE SET NULL,
  how          TEXT NOT NULL CHECK (how IN ('ADMIN','PROMOTION')),
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX tier_changes_agent_idx ON tier_changes (agent_id, created_at DESC);

-- A sub-agent's order: its parent, the parent's own price and the margin, fixed when placed.
ALTER TABLE orders
  ADD COLUMN parent_agent_id INTEGER REFERENCES agents(id) ON DELETE RESTRICT,
  ADD COLUMN parent_price_pesewas INTEGER,
  ADD COLUMN parent_margin_pesewas INTEGER,
  ADD CONSTRAINT orders_parent_margin_check CHECK (
    (parent_agent_id IS NULL AND parent_price_pesewas IS NULL AND parent_margin_pesewas IS NULL)
    OR (parent_agent_id IS NOT NULL AND parent_price_pesewas > 0 AND parent_margin_pesewas >= 0
        AND parent_margin_pesewas = COALESCE(shop_agent_price_pesewas, amount_pesewas) - parent_price_pesewas));
CREATE INDEX orders_parent_agent_idx ON orders (parent_agent_id, created_at DESC) WHERE parent_agent_id IS NOT NULL;

ALTER TABLE earnings_entries DROP CONSTRAINT earnings_entries_type_check;
ALTER TABLE earnings_entries ADD CONSTRAINT earnings_entries_type_check
  CHECK (type IN ('MARGIN','MARGIN_REVERSAL','SUB_AGENT_MARGIN','SUB_AGENT_MARGIN_REVERSAL','PAYOUT','PAYOUT_RETURN','ADJUSTMENT'));
ALTER TABLE earnings_entries DROP CONSTRAINT earnings_entries_check;
ALTER TABLE earnings_entries ADD CONSTRAINT earnings_entries_check
  CHECK ((type IN ('MARGIN','SUB_AGENT_MARGIN','PAYOUT_RETURN') AND amount_pesewas > 0)
      OR (type IN ('MARGIN_REVERSAL','SUB_AGENT_MARGIN_REVERSAL','PAYOUT') AND amount_pesewas < 0)
      OR type = 'ADJUSTMENT');

-- A shop's floor is its agent's own price, which tier prices, an agent's tier and a parent's prices
-- for its sub-agents now decide: their writes drop the cached shop pages on every instance (ADR 0036).
CREATE TRIGGER tier_prices_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tier_prices
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
CREATE TRIGGER tiers_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tiers
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
CREATE TRIGGER sub_agent_prices_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sub_agent_prices
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
CREATE TRIGGER agents_tier_notify AFTER UPDATE OF tier_id, parent_agent_id, suspended_by_parent_at ON agents
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();

CREATE OR REPLACE VIEW orders_view AS
SELECT o.id, o.user_id, o.agent_id, o.package_id, o.package_name, o.recipient_number, o.network, o.data_size_mb,
       o.amount_pesewas, o.payment_status, o.payment_transaction_id, o.payment_phone_number, o.channel,
       (o.delivered OR x.order_id IS NOT NULL) AS delivered,
       COALESCE(o.delivered_at, x.exported_at) AS delivered_at,
       (x.order_id IS NOT NULL) AS exported,
       x.exported_at,
       o.created_at,
       GREATEST(o.updated_at, x.exported_at) AS updated_at,
       CASE WHEN x.order_id IS NULL THEN o.delivery_status ELSE 'MANUAL' END AS delivery_status,
       o.delivery_vendor, o.delivery_reference, o.delivery_attempts,
       CASE WHEN x.order_id IS NULL THEN o.delivery_error END AS delivery_error,
       o.simulated,
       o.shop_id, o.shop_agent_id, o.shop_price_pesewas, o.shop_agent_price_pesewas, o.shop_margin_pesewas,
       o.batch_id,
       o.parent_agent_id, o.parent_price_pesewas, o.parent_margin_pesewas
  FROM orders o
  LEFT JOIN order_exports x ON x.order_id = o.id;
`)
}
