/**
 * Token buckets shared by every replica on one PostgreSQL database (token-buckets.ts says what they promise): one row
 * of `token_buckets` (migration 4 of migrations.ts) per bucket. A take is one statement: the row is inserted full
 * minus the cost, or, if it exists, refilled for the time since it was counted and the cost taken if it is there, all
 * under the row's lock, so takes of one bucket from any number of replicas at once are applied one after the other
 * and never give out more than the bucket holds. Times are the database server's (`clock_timestamp()`), so the
 * replicas' clocks never matter. A row is one per bucket ever used (one per person): the table stays as small as the
 * workspace.
 */
import type { BucketRate, Taken, TokenBuckets } from './token-buckets.js';
import type { SqlRunner } from './pg-coordination.js';

/**
 * $1 bucket, $2 burst, $3 cost (at most the burst), $4 tokens per ms. `taken` says whether the cost was taken (the
 * row as it is after the statement is all RETURNING sees).
 */
const TAKE_SQL = `
  INSERT INTO token_buckets AS b (bucket, tokens, counted_at, told, taken)
  VALUES ($1, $2::float8 - $3::float8, clock_timestamp(), false, true)
  ON CONFLICT (bucket) DO UPDATE SET (tokens, counted_at, told, taken) = (
    SELECT CASE WHEN refill.r >= $3::float8 THEN refill.r - $3::float8 ELSE refill.r END,
           greatest(b.counted_at, excluded.counted_at),
           CASE WHEN refill.r >= $3::float8 THEN false ELSE b.told END,
           refill.r >= $3::float8
    FROM (
      SELECT least(
        $2::float8,
        b.tokens + greatest(0, extract(epoch FROM excluded.counted_at - b.counted_at)::float8) * 1000 * $4::float8
      ) AS r
    ) AS refill
  )
  RETURNING taken, tokens
`;

/** $1 bucket, $2 burst. A row comes back only when this call turned `told` on (or made the bucket). */
const MARK_TOLD_SQL = `
  INSERT INTO token_buckets AS b (bucket, tokens, counted_at, told, taken)
  VALUES ($1, $2::float8, clock_timestamp(), true, true)
  ON CONFLICT (bucket) DO UPDATE SET told = true WHERE NOT b.told
  RETURNING 1 AS turned
`;

export class PgTokenBuckets implements TokenBuckets {
  constructor(private readonly sql: SqlRunner) {}

  async take(bucket: string, cost: number, rate: BucketRate): Promise<Taken> {
    const perMs = rate.perMinute / 60_000;
    const { rows } = await this.sql.query<{ taken: boolean; tokens: number }>(TAKE_SQL, [
      bucket,
      rate.burst,
      cost,
      perMs,
    ]);
    const row = rows[0];
    if (!row) throw new Error(`taking from bucket ${bucket} returned no row`);
    return row.taken ? { ok: true } : { ok: false, waitMs: Math.max(1, Math.ceil((cost - row.tokens) / perMs)) };
  }

  async markTold(bucket: string, rate: BucketRate): Promise<boolean> {
    const { rows } = await this.sql.query(MARK_TOLD_SQL, [bucket, rate.burst]);
    return rows.length > 0;
  }
}
