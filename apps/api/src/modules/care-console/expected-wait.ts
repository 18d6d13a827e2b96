import {
  DEFAULT_MINUTES_PER_PLACE,
  ESTIMATE_SAMPLE,
  ESTIMATE_WINDOW_DAYS,
} from "@ambercare/contracts/waiting-room";
import type { Executor } from "@ambercare/db/client";
import { licenceDay } from "@ambercare/db/schema";
import { sql } from "drizzle-orm";
import type { Clock } from "#api/platform/clock.ts";

/**
 * The wait a new request can expect with each provider whose clinician is on duty (ADR 039),
 * at the pace the patient's waiting room uses too (ADR 040; constants in contracts/waiting-room). A new request joins behind the requests that provider may take now (licensed in their
 * state, of a type they offer, not yet expired), and each of those takes as long to accept as that
 * provider's recent requests did on average (request to accept, their latest 20 within 7 days;
 * 5 minutes without any):
 *
 *   expected = ceil((waiting + 1) × average), between 1 and the accept timeout.
 *
 * Providers off duty (or with no clinician account) are not in the answer.
 */
export async function expectedWaits(
  db: Executor,
  providerIds: readonly string[],
  now: Date,
  acceptTimeoutMs: number,
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string,
): Promise<Map<string, number>> {
  if (providerIds.length === 0) return new Map();
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const notBefore = sql`${new Date(now.getTime() - acceptTimeoutMs).toISOString()}::timestamptz`;
  const recentFrom = sql`${new Date(now.getTime() - ESTIMATE_WINDOW_DAYS * 86_400_000).toISOString()}::timestamptz`;
  const ids = sql.join(
    providerIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute<{
    provider_id: string;
    waiting: number;
    average_minutes: number | null;
  }>(sql`
    select p.id as provider_id,
      (select count(*)::int from consultations c
        where c.status = 'requested' and c.created_at > ${notBefore}
          and (c.provider_id is null or c.provider_id = p.id)
          and exists (select 1 from provider_licenses l where l.provider_id = p.id and l.state = c.state
            and (l.expires_on is null or l.expires_on >= ${licenceDay(now, timeZone)}::date))
          and c.type = any(p.visit_types)) as waiting,
      (select avg(extract(epoch from (r.accepted_at - r.created_at)) / 60)::float8 from (
        select c.accepted_at, c.created_at from consultations c
        where c.provider_id = p.id and c.accepted_at is not null
          and c.accepted_at > ${recentFrom} and c.accepted_at <= ${nowSql}
        order by c.accepted_at desc limit ${ESTIMATE_SAMPLE}) r) as average_minutes
    from providers p
    join clinicians k on k.provider_id = p.id
    where p.id in (${ids}) and k.on_duty_since is not null and k.disabled_at is null`);
  const ceiling = Math.max(1, Math.floor(acceptTimeoutMs / 60_000));
  const waits = new Map<string, number>();
  for (const row of result.rows) {
    const average = row.average_minutes ?? DEFAULT_MINUTES_PER_PLACE;
    const minutes = Math.ceil((Number(row.waiting) + 1) * average);
    waits.set(row.provider_id, Math.min(ceiling, Math.max(1, minutes)));
  }
  return waits;
}

/**
 * How long the directory reuses a provider's expected wait: as long as its own copy of who is on
 * duty may be stale (DIRECTORY_CHECK_INTERVAL_MS, ADR 019). Asked on every search that shows an
 * on-duty provider, the query above made each such search a database read, where the directory
 * itself answers from memory; an estimate in minutes loses nothing by being 5 s old.
 */
export const EXPECTED_WAIT_REUSE_MS = 5_000;

type WaitsReader = (providerIds: readonly string[]) => Promise<Map<string, number>>;

/**
 * `read` (expectedWaits bound to a database) with each provider's answer reused for `reuseMs` on
 * `clock`: the providers not known or known for longer are read together in one query, and searches
 * that need a provider while it is being read wait for that read instead of starting another.
 */
export function reusedExpectedWaits(
  read: WaitsReader,
  clock: Clock,
  reuseMs = EXPECTED_WAIT_REUSE_MS,
): WaitsReader {
  /** null: the provider has no wait (off duty, or no clinician account). */
  const known = new Map<string, { minutes: number | null; at: number }>();
  const reading = new Map<string, Promise<void>>();
  return async (providerIds) => {
    const now = clock.now().getTime();
    const stale = providerIds.filter((id) => {
      const entry = known.get(id);
      return (!entry || now - entry.at >= reuseMs) && !reading.has(id);
    });
    if (stale.length > 0) {
      const reads = read(stale)
        .then((waits) => {
          for (const id of stale) known.set(id, { minutes: waits.get(id) ?? null, at: now });
        })
        .finally(() => {
          for (const id of stale) reading.delete(id);
        });
      for (const id of stale) reading.set(id, reads);
    }
    await Promise.all(providerIds.map((id) => reading.get(id)));
    const waits = new Map<string, number>();
    for (const id of providerIds) {
      const minutes = known.get(id)?.minutes;
      if (minutes !== undefined && minutes !== null) waits.set(id, minutes);
    }
    return waits;
  };
}
