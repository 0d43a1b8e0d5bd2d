import type { MigrationFn } from '../migrate.ts'

// The visitors' /checkers page is kept in memory on every instance (ADR 0047): it shows the active
// checker products, their visitor price and whether each is in stock. Triggers tell every instance at
// commit with the notice 'vouchers', whoever wrote (admins, the settlement selling cards, an operator).
// Sales write voucher_cards all day, so a card write tells only when a product may have run out or
// come back; a card that expires needs no notice: a cached page lives 5 s at most.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_notify_vouchers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'vouchers');
  RETURN NULL;
END $$;

-- low_stock_alerted_at and updated_at move without the page changing.
CREATE TRIGGER voucher_products_notify AFTER INSERT OR DELETE ON voucher_products
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_vouchers();
CREATE TRIGGER voucher_products_update_notify AFTER UPDATE ON voucher_products
  FOR EACH ROW WHEN (
    OLD.name IS DISTINCT FROM NEW.name OR OLD.how_to_use IS DISTINCT FROM NEW.how_to_use
    OR OLD.checking_url IS DISTINCT FROM NEW.checking_url OR OLD.price_user_pesewas IS DISTINCT FROM NEW.price_user_pesewas
    OR OLD.price_agent_pesewas IS DISTINCT FROM NEW.price_agent_pesewas OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION datahub_notify_vouchers();
CREATE TRIGGER voucher_products_truncate_notify AFTER TRUNCATE ON voucher_products
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_vouchers();
CREATE TRIGGER voucher_cards_truncate_notify AFTER TRUNCATE ON voucher_cards
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_vouchers();

-- Cards added (an upload): a product may be back in stock. Cards sold, voided or removed: only a
-- product left with no available card changes the page (one probe of voucher_cards_available_idx per
-- product touched). changed_cards is the statement's new rows for an insert, its old rows otherwise.
CREATE FUNCTION datahub_notify_card_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM changed_cards WHERE status = 'AVAILABLE'))
     OR (TG_OP <> 'INSERT' AND EXISTS (
       SELECT 1 FROM (SELECT DISTINCT product_id FROM changed_cards WHERE status = 'AVAILABLE') t
        WHERE NOT EXISTS (
          SELECT 1 FROM voucher_cards c
           WHERE c.product_id = t.product_id AND c.status = 'AVAILABLE' AND (c.expires_on IS NULL OR c.expires_on >= current_date))))
  THEN
    PERFORM pg_notify('datahub_changes', 'vouchers');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER voucher_cards_insert_notify AFTER INSERT ON voucher_cards
  REFERENCING NEW TABLE AS changed_cards FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_card_stock();
CREATE TRIGGER voucher_cards_update_notify AFTER UPDATE ON voucher_cards
  REFERENCING OLD TABLE AS changed_cards FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_card_stock();
CREATE TRIGGER voucher_cards_delete_notify AFTER DELETE ON voucher_cards
  REFERENCING OLD TABLE AS changed_cards FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_card_stock();
-- A card made available again may bring its product back.
CREATE TRIGGER voucher_cards_back_notify AFTER UPDATE OF status ON voucher_cards
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM 'AVAILABLE' AND NEW.status = 'AVAILABLE')
  EXECUTE FUNCTION datahub_notify_vouchers();
`)
}
