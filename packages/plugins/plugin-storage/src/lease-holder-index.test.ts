// The PostgreSQL heartbeat's lookup by holder uses an index: with many lease rows, most released, the plan of renew's
// UPDATE is an index scan of aalis_leases_holder, not a scan of the table.
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresLeases } from './lease-backends.js';

let database: PostgresDatabase | undefined;
afterAll(async () => {
  await database?.close();
});

describe('leases on PostgreSQL: the heartbeat finds its rows by index', () => {
  it('renew (UPDATE … WHERE holder = $1 AND released = 0) is planned as an index scan', async () => {
    database = new PostgresDatabase(await throwawayDatabase());
    await postgresLeases(database);
    // 20 000 leases of 200 processes, nine in ten released, as a long-running deployment leaves them.
    await database.query(`INSERT INTO aalis_leases (name, holder, note, expires_at, released)
      SELECT 'session:' || n, 'holder-' || (n % 200), NULL, 0, CASE WHEN n % 10 = 0 THEN 0 ELSE 1 END
      FROM generate_series(1, 20000) AS n`);
    await database.query('ANALYZE aalis_leases');
    const plan = await database.query<{ 'QUERY PLAN': string }>(
      "EXPLAIN UPDATE aalis_leases SET expires_at = 1 WHERE holder = 'holder-10' AND released = 0 RETURNING name",
    );
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan using aalis_leases_holder|Bitmap Index Scan on aalis_leases_holder/);
    expect(text).not.toMatch(/Seq Scan/);
  });
});
