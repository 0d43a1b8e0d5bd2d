import type { MigrationFn } from '../migrate.ts'

// Agent shops sell result-checker cards (docs/shops.md, ADR 0040 '## In agent shops'): the shop's price
// per product, the sale as settlement allocated it, and the agent's margin on the earnings ledger
// fenced per payment (a checker purchase has no order to fence it by).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- A row = the shop sells this product, at this price per card.
CREATE TABLE shop_checker_prices (
  shop_id INTEGER NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES voucher_products(id) ON DELETE CASCADE,
  price_pesewas INTEGER NOT NULL CHECK (price_pesewas > 0),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, product_id)
);

-- One row per paid shop purchase that got cards, written with its margin in the settlement's transaction.
CREATE TABLE shop_checker_sales (
  payment_transaction_id TEXT PRIMARY KEY,
  shop_id INTEGER NOT NULL REFERENCES shops(id),
  agent_id INTEGER NOT NULL REFERENCES agents(id),
  product_id INTEGER NOT NULL REFERENCES voucher_products(id),
  cards INTEGER NOT NULL CHECK (cards > 0),
  price_pesewas INTEGER NOT NULL,
  agent_price_pesewas INTEGER NOT NULL,
  amount_pesewas BIGINT NOT NULL,
  margin_pesewas BIGINT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK (price_pesewas >= agent_price_pesewas AND agent_price_pesewas > 0),
  CHECK (amount_pesewas = price_pesewas::bigint * cards AND margin_pesewas = (price_pesewas - agent_price_pesewas)::bigint * cards)
);
CREATE INDEX shop_checker_sales_agent_idx ON shop_checker_sales (agent_id, created_at);
CREATE INDEX shop_checker_sales_shop_idx ON shop_checker_sales (shop_id);

ALTER TABLE earnings_entries ADD COLUMN payment_transaction_id TEXT;
CREATE UNIQUE INDEX earnings_entries_payment_type_key ON earnings_entries (payment_transaction_id, type) WHERE payment_transaction_id IS NOT NULL;

CREATE OR REPLACE FUNCTION earnings_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'earnings entries cannot be deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- the only change allowed: the actor link going to NULL when that user is deleted
  IF (NEW.id, NEW.agent_id, NEW.type, NEW.amount_pesewas, NEW.balance_after_pesewas, NEW.reason, NEW.order_id, NEW.payout_id, NEW.payment_transaction_id, NEW.created_at)
       IS DISTINCT FROM (OLD.id, OLD.agent_id, OLD.type, OLD.amount_pesewas, OLD.balance_after_pesewas, OLD.reason, OLD.order_id, OLD.payout_id, OLD.payment_transaction_id, OLD.created_at)
     OR (NEW.actor_user_id IS NOT NULL AND NEW.actor_user_id IS DISTINCT FROM OLD.actor_user_id) THEN
    RAISE EXCEPTION 'earnings entries cannot be edited' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $fn$;

-- Cached shop pages (ADR 0036) show the checker section: its prices, the products and whether stock exists.
CREATE TRIGGER shop_checker_prices_notify AFTER INSERT OR UPDATE OR DELETE ON shop_checker_prices
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_shop_row();
CREATE TRIGGER shop_checker_prices_truncate_notify AFTER TRUNCATE ON shop_checker_prices
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
CREATE TRIGGER voucher_products_shops_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voucher_products
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
-- New cards (an upload) may bring a product back into stock.
CREATE TRIGGER voucher_cards_added_notify AFTER INSERT ON voucher_cards
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
-- A sale or a void tells the shops only when it took a product's last card: one indexed look per sale, so
-- results-day sales do not empty every shop's cached page each time.
CREATE FUNCTION datahub_notify_shops_stock_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM (SELECT DISTINCT product_id FROM changed_cards) n
     WHERE NOT EXISTS (SELECT 1 FROM voucher_cards c WHERE c.product_id = n.product_id AND c.status = 'AVAILABLE'
                          AND (c.expires_on IS NULL OR c.expires_on >= current_date))
  ) THEN
    PERFORM pg_notify('datahub_changes', 'shops');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER voucher_cards_stock_out_notify AFTER UPDATE ON voucher_cards REFERENCING NEW TABLE AS changed_cards
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_shops_stock_out();
`)
}
