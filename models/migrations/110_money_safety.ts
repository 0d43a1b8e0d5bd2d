import type { MigrationFn } from '../migrate.ts'

// Money safety (ADR 0013): refunds exactly once, late money, reversals, gateway events kept,
// payments needing attention, daily reconciliation runs.
export const up: MigrationFn = async ({ context: sql }) => {
  // Payments may be refunded or reversed after they settle; orders show Refunded.
  await sql(`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check`)
  await sql(`ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN
    ('PENDING','IN_PROGRESS','SUCCESS','FAILED','EXPIRED','REFUND_PENDING','REFUNDED','REFUND_FAILED','REVERSED'))`)
  await sql(`ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check`)
  await sql(`ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check CHECK (payment_status IN
    ('PENDING','IN_PROGRESS','SUCCESS','FAILED','EXPIRED','REFUNDED','REVERSED'))`)
  // The reconcile job pages through open payments, least recently checked first.
  await sql(`CREATE INDEX payments_open_checked_idx ON payments (last_checked_at NULLS FIRST, id) WHERE status IN ('PENDING','IN_PROGRESS')`)
  await sql(`CREATE INDEX payments_created_idx ON payments (created_at)`)

  // One row per refund; (transaction_id, kind) unique is the fence that makes a refund happen once:
  // 'full' gives back what is left of the payment, 'excess' the part paid above the price.
  await sql(`CREATE TABLE refunds (
    id SERIAL PRIMARY KEY,
    payment_id INTEGER NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
    transaction_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('full','excess')),
    gateway TEXT NOT NULL,
    amount_pesewas INTEGER NOT NULL CHECK (amount_pesewas > 0),
    reason TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING','SENDING','SENT','PROCESSED','FAILED')),
    ext_refund_id TEXT,
    message TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    requested_by INTEGER,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (transaction_id, kind)
  )`)
  await sql(`CREATE INDEX refunds_status_idx ON refunds (status, created_at DESC)`)

  // Every signed gateway event, once by its id, whether we handled it or not.
  await sql(`CREATE TABLE gateway_events (
    id SERIAL PRIMARY KEY,
    gateway TEXT NOT NULL,
    event_key TEXT NOT NULL,
    event TEXT NOT NULL,
    reference TEXT,
    handled BOOLEAN NOT NULL DEFAULT false,
    note TEXT,
    payload JSONB NOT NULL,
    received_count INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (gateway, event_key)
  )`)

  // Payments needing attention: one row per (kind, key); resolved by an admin.
  await sql(`CREATE TABLE payment_issues (
    id SERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    transaction_id TEXT,
    summary TEXT NOT NULL,
    action_taken TEXT,
    details JSONB NOT NULL DEFAULT '{}',
    resolved_at TIMESTAMPTZ,
    resolved_by INTEGER,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (kind, key)
  )`)
  await sql(`CREATE INDEX payment_issues_open_idx ON payment_issues (created_at DESC) WHERE resolved_at IS NULL`)

  // Daily reconciliation runs, kept with their counts (findings go to payment_issues).
  await sql(`CREATE TABLE reconciliation_runs (
    id SERIAL PRIMARY KEY,
    day DATE NOT NULL,
    gateway TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING','DONE','FAILED')),
    gateway_count INTEGER NOT NULL DEFAULT 0,
    local_count INTEGER NOT NULL DEFAULT 0,
    mismatches INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at TIMESTAMPTZ
  )`)
}
