import type { MigrationFn } from '../migrate.ts'

// USSD dial state is written on every hop and lives 3 minutes: it needs no write-ahead log. An
// unlogged table skips the WAL flush each hop would otherwise wait for; after a database crash it
// comes back empty, and a dial in progress then ends with "Session timed out" (ADR 0007).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql('ALTER TABLE ussd_sessions SET UNLOGGED')
}
