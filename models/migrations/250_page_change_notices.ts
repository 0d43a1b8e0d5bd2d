import type { MigrationFn } from '../migrate.ts'

// Every instance keeps visitors' pages in memory (ADR 0019, 0036). A shop's page changes with its
// shop row, its prices and its agent's standing, and those rows are written by many services (and by
// operators by hand): triggers tell every instance at commit, whoever wrote, with no writer to forget.
// The payload names what changed: 'packages', 'shop:<id>', or 'shops' (all of them, a TRUNCATE).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_notify_packages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'packages');
  RETURN NULL;
END $$;
CREATE TRIGGER packages_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON packages
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_packages();

CREATE FUNCTION datahub_notify_shop_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'shops' THEN
    PERFORM pg_notify('datahub_changes', 'shop:' || r.id);
  ELSE
    PERFORM pg_notify('datahub_changes', 'shop:' || r.shop_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER shops_notify AFTER INSERT OR UPDATE OR DELETE ON shops
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_shop_row();
CREATE TRIGGER shop_prices_notify AFTER INSERT OR UPDATE OR DELETE ON shop_prices
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_shop_row();

CREATE FUNCTION datahub_notify_all_shops() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'shops');
  RETURN NULL;
END $$;
CREATE TRIGGER shops_truncate_notify AFTER TRUNCATE ON shops FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();
CREATE TRIGGER shop_prices_truncate_notify AFTER TRUNCATE ON shop_prices FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_all_shops();

-- A shop is open only while its agent is approved and paid.
CREATE FUNCTION datahub_notify_agent_shop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'shop:' || s.id) FROM shops s WHERE s.agent_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER agents_shop_notify AFTER UPDATE OF approved, payment_status ON agents
  FOR EACH ROW WHEN (OLD.approved IS DISTINCT FROM NEW.approved OR OLD.payment_status IS DISTINCT FROM NEW.payment_status)
  EXECUTE FUNCTION datahub_notify_agent_shop();
`)
}
