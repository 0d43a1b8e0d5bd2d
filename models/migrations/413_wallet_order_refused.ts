import type { MigrationFn } from '../migrate.ts'

// A wallet order placed by one autocommitted statement (ADR 0079) keeps every CTE that ran unless the statement itself
// fails: when it must not commit (the wallet did not cover it, another request holds its Idempotency-Key, the settings
// or the agent's webhook URL changed since the request read them), its last SELECT calls this with the reason, and the
// raise rolls the whole statement back. SQLSTATE DHW01 is ours alone; the reason is the message the app maps back.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_wallet_order_refused(why text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF why IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DHW01', MESSAGE = why;
  END IF;
  RETURN false;
END
$$;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql('DROP FUNCTION datahub_wallet_order_refused(text);')
}
