import type { MigrationFn } from '../migrate.ts'

// A gateway's settlement of a customer's order run as one autocommitted statement (ADR 0086, "Alone") keeps every CTE
// that ran unless the statement itself fails: when the payment moved but the order, its text or its audit entry was
// not written by the same statement (the order not open, settings saved since the copy, the order's columns changed
// since they were read), its last SELECT calls this with the reason and the raise rolls the whole statement back; the
// settlement then runs in a transaction as before. SQLSTATE DHS01 is ours alone; the reason is the message.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_settlement_refused(why text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF why IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'DHS01', MESSAGE = why;
  END IF;
  RETURN false;
END
$$;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql('DROP FUNCTION datahub_settlement_refused(text);')
}
