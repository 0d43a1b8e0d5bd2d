import type { MigrationFn } from '../migrate.ts'

// Account recovery, and sessions that end when they should (ADR 0018).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- One live reset code per account: a new request replaces the old one (upsert on user_id).
-- Only an HMAC of the code is kept; attempts counts wrong tries (5 end it).
CREATE TABLE password_reset_codes (
  user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  code_hash  TEXT NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0,
  expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- rate-limiter-flexible's PostgreSQL store for the recovery limits (its own table, so the login
-- throttle another change adopts keeps its own).
CREATE TABLE recovery_rate_limits (
  key    VARCHAR(255) PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire BIGINT
);

-- Sessions end by bumping the epoch: a cookie session carries the epoch it was signed in under and is
-- refused once the user's epoch moved on, even if a racing request wrote the session row back.
ALTER TABLE users ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT 0;

-- Cookie sessions of one user are found by the user id inside the session JSON.
CREATE INDEX session_user_idx ON session ((sess->>'userId'));

-- Refresh tokens rotate: each login starts a family; a rotated token presented again ends the family.
ALTER TABLE auth_tokens ADD COLUMN family_id UUID;
ALTER TABLE auth_tokens ADD COLUMN rotated_at TIMESTAMPTZ;
CREATE INDEX auth_tokens_family_idx ON auth_tokens (family_id) WHERE family_id IS NOT NULL;

-- Messages carrying a one-time code: not shown in the admin outbox view once a real provider sends them.
ALTER TABLE sms_outbox ADD COLUMN sensitive BOOLEAN NOT NULL DEFAULT false;
`)
}
