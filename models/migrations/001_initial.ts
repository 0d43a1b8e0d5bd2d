import type { MigrationFn } from '../migrate.ts'

// One schema for every entity of the spec (section 3), so later work never fights over it.
// Money columns are integer pesewas.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE users (
  id            SERIAL PRIMARY KEY,
  email         TEXT NOT NULL,
  phone         VARCHAR(12),
  name          TEXT,
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL DEFAULT 'PUBLIC' CHECK (role IN ('PUBLIC','AGENT','ADMIN')),
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_role_idx ON users (role, created_at);

CREATE TABLE agents (
  id                     SERIAL PRIMARY KEY,
  user_id                INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  name                   TEXT NOT NULL,
  phone                  VARCHAR(12) NOT NULL,
  approved               BOOLEAN NOT NULL DEFAULT false,
  approved_at            TIMESTAMPTZ,
  payment_status         TEXT CHECK (payment_status IN ('PENDING','IN_PROGRESS','SUCCESS','FAILED','EXPIRED')),
  payment_transaction_id TEXT,
  pin_hash               TEXT,
  pin_failed_attempts    INTEGER NOT NULL DEFAULT 0,
  pin_locked_until       TIMESTAMPTZ,
  created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX agents_phone_idx ON agents (phone);
CREATE INDEX agents_approved_idx ON agents (approved, created_at);

CREATE TABLE settings (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  data       JSONB NOT NULL DEFAULT '{}',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE packages (
  id                  SERIAL PRIMARY KEY,
  network             TEXT NOT NULL CHECK (network IN ('MTN','TELECEL','AIRTELTIGO')),
  name                TEXT,
  size_mb             INTEGER NOT NULL CHECK (size_mb > 0),
  price_user_pesewas  INTEGER NOT NULL CHECK (price_user_pesewas >= 0),
  price_agent_pesewas INTEGER CHECK (price_agent_pesewas >= 0),
  active              BOOLEAN NOT NULL DEFAULT true,
  created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX packages_network_idx ON packages (network, size_mb);

CREATE TABLE orders (
  id                     SERIAL PRIMARY KEY,
  user_id                INTEGER REFERENCES users(id) ON DELETE SET NULL,
  agent_id               INTEGER REFERENCES agents(id) ON DELETE SET NULL,
  package_id             INTEGER REFERENCES packages(id) ON DELETE SET NULL,
  package_name           TEXT,
  recipient_number       VARCHAR(12) NOT NULL,
  network                TEXT NOT NULL CHECK (network IN ('MTN','TELECEL','AIRTELTIGO')),
  data_size_mb           INTEGER NOT NULL,
  amount_pesewas         INTEGER NOT NULL CHECK (amount_pesewas >= 0),
  payment_status         TEXT NOT NULL DEFAULT 'PENDING' CHECK (payment_status IN ('PENDING','IN_PROGRESS','SUCCESS','FAILED','EXPIRED')),
  payment_transaction_id TEXT UNIQUE,
  payment_phone_number   VARCHAR(12),
  channel                TEXT NOT NULL DEFAULT 'web',
  delivered              BOOLEAN NOT NULL DEFAULT false,
  delivered_at           TIMESTAMPTZ,
  exported               BOOLEAN NOT NULL DEFAULT false,
  exported_at            TIMESTAMPTZ,
  created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX orders_recipient_idx ON orders (recipient_number, created_at DESC);
CREATE INDEX orders_status_exported_idx ON orders (exported, payment_status, created_at DESC);
CREATE INDEX orders_created_idx ON orders (created_at DESC);
CREATE INDEX orders_agent_idx ON orders (agent_id, created_at DESC);
CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
CREATE INDEX orders_payment_phone_idx ON orders (payment_phone_number);

CREATE TABLE afa_registrations (
  id                     SERIAL PRIMARY KEY,
  full_name              TEXT NOT NULL,
  gh_card                TEXT NOT NULL,
  phone                  VARCHAR(12) NOT NULL,
  email                  TEXT,
  amount_pesewas         INTEGER NOT NULL DEFAULT 0,
  payment_status         TEXT,
  payment_transaction_id TEXT UNIQUE,
  completed              BOOLEAN NOT NULL DEFAULT false,
  completed_at           TIMESTAMPTZ,
  created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX afa_created_idx ON afa_registrations (created_at DESC);
CREATE INDEX afa_phone_idx ON afa_registrations (phone);

-- One row per payment attempt; the transaction id is what exactly-once settlement keys on.
CREATE TABLE payments (
  id                  SERIAL PRIMARY KEY,
  transaction_id      TEXT NOT NULL UNIQUE,
  purpose             TEXT NOT NULL CHECK (purpose IN ('data','afa','agent_fee')),
  gateway             TEXT NOT NULL,
  method              TEXT NOT NULL CHECK (method IN ('momo','card')),
  ext_transaction_id  TEXT,
  status              TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING','IN_PROGRESS','SUCCESS','FAILED','EXPIRED')),
  amount_pesewas      INTEGER NOT NULL CHECK (amount_pesewas >= 0),
  payer_phone         VARCHAR(12),
  payer_network       TEXT,
  email               TEXT,
  message             TEXT,
  order_id            INTEGER REFERENCES orders(id) ON DELETE SET NULL,
  afa_registration_id INTEGER REFERENCES afa_registrations(id) ON DELETE SET NULL,
  agent_id            INTEGER REFERENCES agents(id) ON DELETE SET NULL,
  user_id             INTEGER REFERENCES users(id) ON DELETE SET NULL,
  details             JSONB NOT NULL DEFAULT '{}',
  settled_at          TIMESTAMPTZ,
  last_checked_at     TIMESTAMPTZ,
  created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX payments_pending_idx ON payments (status, created_at) WHERE status IN ('PENDING','IN_PROGRESS');
CREATE INDEX payments_ext_idx ON payments (ext_transaction_id);
CREATE INDEX payments_order_idx ON payments (order_id);
CREATE INDEX payments_agent_idx ON payments (agent_id);

CREATE TABLE admin_messages (
  id         SERIAL PRIMARY KEY,
  title      TEXT NOT NULL,
  message    TEXT NOT NULL,
  priority   TEXT NOT NULL DEFAULT 'NORMAL' CHECK (priority IN ('LOW','NORMAL','HIGH','URGENT')),
  sender_id  INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE admin_message_recipients (
  id         SERIAL PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES admin_messages(id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  is_read    BOOLEAN NOT NULL DEFAULT false,
  read_at    TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (message_id, user_id)
);
CREATE INDEX amr_user_idx ON admin_message_recipients (user_id, is_read);

CREATE TABLE audit_logs (
  id          BIGSERIAL PRIMARY KEY,
  timestamp   TIMESTAMPTZ NOT NULL DEFAULT now(),
  user_id     INTEGER REFERENCES users(id) ON DELETE SET NULL,
  action      TEXT NOT NULL,
  resource    TEXT NOT NULL,
  resource_id TEXT,
  severity    TEXT NOT NULL DEFAULT 'LOW' CHECK (severity IN ('LOW','MEDIUM','HIGH','CRITICAL')),
  ip_address  TEXT,
  details     JSONB NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_time_idx ON audit_logs (timestamp DESC);
CREATE INDEX audit_action_idx ON audit_logs (action, timestamp DESC);
CREATE INDEX audit_user_idx ON audit_logs (user_id, timestamp DESC);

CREATE TABLE commissions (
  id                        SERIAL PRIMARY KEY,
  order_id                  INTEGER NOT NULL UNIQUE REFERENCES orders(id) ON DELETE CASCADE,
  agent_id                  INTEGER REFERENCES agents(id) ON DELETE SET NULL,
  network                   TEXT NOT NULL,
  original_amount_pesewas   INTEGER NOT NULL,
  commission_amount_pesewas INTEGER NOT NULL,
  commission_type           TEXT NOT NULL DEFAULT 'PERCENTAGE',
  payment_status            TEXT NOT NULL DEFAULT 'PENDING',
  archived                  BOOLEAN NOT NULL DEFAULT false,
  archived_at               TIMESTAMPTZ,
  archive_notes             TEXT,
  created_at                TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX commissions_archived_idx ON commissions (archived, created_at DESC);
CREATE INDEX commissions_agent_idx ON commissions (agent_id);

CREATE TABLE ussd_whitelist (
  id           SERIAL PRIMARY KEY,
  phone_number VARCHAR(12) NOT NULL UNIQUE,
  is_active    BOOLEAN NOT NULL DEFAULT true,
  added_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ussd_sessions (
  session_id TEXT PRIMARY KEY,
  phone      VARCHAR(15) NOT NULL,
  state      JSONB NOT NULL DEFAULT '{}',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX ussd_sessions_expires_idx ON ussd_sessions (expires_at);

CREATE TABLE auth_tokens (
  id         SERIAL PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL CHECK (kind IN ('access','refresh')),
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TIMESTAMPTZ NOT NULL,
  revoked_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id);

CREATE TABLE rate_limits (
  key          TEXT PRIMARY KEY,
  count        INTEGER NOT NULL DEFAULT 0,
  window_start TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE sms_outbox (
  id         SERIAL PRIMARY KEY,
  to_phone   VARCHAR(15) NOT NULL,
  message    TEXT NOT NULL,
  status     TEXT NOT NULL DEFAULT 'QUEUED',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- express-session store (connect-pg-simple's table).
CREATE TABLE session (
  sid    VARCHAR NOT NULL PRIMARY KEY,
  sess   JSON NOT NULL,
  expire TIMESTAMP(6) NOT NULL
);
CREATE INDEX session_expire_idx ON session (expire);
`)
}
