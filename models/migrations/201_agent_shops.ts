import type { MigrationFn } from '../migrate.ts'

// Shops: an agent's shop at /shop/<slug>, the agent's prices per bundle, and the shop order's
// selling price, agent price and margin fixed when the buyer confirms. ADR 0020, '## Shops'.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE shops (
  id               SERIAL PRIMARY KEY,
  agent_id         INTEGER NOT NULL UNIQUE REFERENCES agents(id) ON DELETE CASCADE,
  slug             TEXT NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$'),
  name             TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  description      TEXT NOT NULL DEFAULT '',
  whatsapp         TEXT NOT NULL DEFAULT '',
  -- #rrggbb, checked by the service for contrast with white text
  accent           TEXT NOT NULL DEFAULT '#00796b' CHECK (accent ~ '^#[0-9a-f]{6}$'),
  status           TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE','SUSPENDED')),
  suspended_reason TEXT,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A slug the shop used before: its old links answer with a redirect to the current one.
CREATE TABLE shop_slug_history (
  slug       TEXT PRIMARY KEY,
  shop_id    INTEGER NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The bundles the agent sells and at what price (a row = listed).
CREATE TABLE shop_prices (
  shop_id       INTEGER NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  package_id    INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
  price_pesewas BIGINT NOT NULL CHECK (price_pesewas > 0),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, package_id)
);

-- A shop order keeps agent_id NULL (that column means "the agent's own order"); these record the sale.
ALTER TABLE orders
  ADD COLUMN shop_id INTEGER REFERENCES shops(id) ON DELETE RESTRICT,
  ADD COLUMN shop_agent_id INTEGER REFERENCES agents(id) ON DELETE RESTRICT,
  ADD COLUMN shop_price_pesewas BIGINT,
  ADD COLUMN shop_agent_price_pesewas BIGINT,
  ADD COLUMN shop_margin_pesewas BIGINT,
  ADD CONSTRAINT orders_shop_fields_check CHECK (
    shop_id IS NULL OR (shop_agent_id IS NOT NULL AND agent_id IS NULL AND shop_price_pesewas > 0
      AND shop_agent_price_pesewas > 0 AND shop_margin_pesewas = shop_price_pesewas - shop_agent_price_pesewas AND shop_margin_pesewas >= 0
      AND amount_pesewas = shop_price_pesewas));
CREATE INDEX orders_shop_idx ON orders (shop_id, created_at) WHERE shop_id IS NOT NULL;
`)
}
