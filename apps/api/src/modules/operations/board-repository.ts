import type { Executor } from "@ambercare/db/client";
import { auditLog, clinicians, consultations, providers, users } from "@ambercare/db/schema";
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, sql } from "drizzle-orm";

const providerName = sql<
  string | null
>`case when ${providers.id} is null then null else ${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials} end`;

const visitColumns = {
  id: consultations.id,
  type: consultations.type,
  state: consultations.state,
  status: consultations.status,
  providerName,
};

/** A clinician's entries in the access log on a day. */
type ReadsRow = { actor_user_id: string; email: string; reads: number };

/**
 * The clinic's day (CLINIC_TIME_ZONE): its date, and as instants its midnight and the next one.
 */
export type BoardDay = { day: string; start: Date; end: Date; timeZone: string };

/**
 * What today's board reads: visits (ids, type, state, status, times, their clinician's directory
 * name; never intake, notes or the patient), who is on duty, and the clinicians' access-log counts.
 */
export function createBoardRepository(db: Executor) {
  return {
    /** On-demand requests waiting for a clinician, longest first. */
    async waiting() {
      return db
        .select({ ...visitColumns, createdAt: consultations.createdAt })
        .from(consultations)
        .leftJoin(providers, eq(providers.id, consultations.providerId))
        .where(and(eq(consultations.status, "requested"), isNull(consultations.scheduledStart)))
        .orderBy(asc(consultations.createdAt), asc(consultations.id));
    },

    /** Visits accepted or started and not yet ended. */
    async inProgress() {
      return db
        .select({
          ...visitColumns,
          acceptedAt: consultations.acceptedAt,
          startedAt: consultations.startedAt,
          scheduledStart: consultations.scheduledStart,
        })
        .from(consultations)
        .leftJoin(providers, eq(providers.id, consultations.providerId))
        .where(inArray(consultations.status, ["accepted", "in_progress"]))
        .orderBy(asc(consultations.acceptedAt), asc(consultations.id));
    },

    /** The booked visits starting on the day, canceled and expired ones left out, by start. */
    async bookedOn(day: BoardDay) {
      return db
        .select({
          ...visitColumns,
          scheduledStart: sql<Date>`${consultations.scheduledStart}`.mapWith(consultations.scheduledStart),
          checkedInAt: consultations.checkedInAt,
        })
        .from(consultations)
        .leftJoin(providers, eq(providers.id, consultations.providerId))
        .where(
          and(
            isNotNull(consultations.scheduledStart),
            gte(consultations.scheduledStart, day.start),
            lt(consultations.scheduledStart, day.end),
            notInArray(consultations.status, ["canceled", "expired"]),
          ),
        )
        .orderBy(asc(consultations.scheduledStart), asc(consultations.id));
    },

    /** Clinicians on duty now (an enabled account), longest on duty first. */
    async onDuty() {
      return db
        .select({
          userId: clinicians.userId,
          email: users.email,
          providerName: sql<string>`${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials}`,
          onDutySince: sql<Date>`${clinicians.onDutySince}`.mapWith(clinicians.onDutySince),
        })
        .from(clinicians)
        .innerJoin(users, eq(users.id, clinicians.userId))
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .where(and(isNotNull(clinicians.onDutySince), isNull(clinicians.disabledAt)))
        .orderBy(asc(clinicians.onDutySince), asc(users.email));
    },

    /**
     * Clinicians who read, on the day, the records of patients with whom their provider has no
     * visit: how many entries (each refused attempt counted) and how many such patients.
     */
    async readsWithoutVisit(day: BoardDay) {
      const result = await db.execute<ReadsRow & { patients: number }>(sql`
        select a.actor_user_id, u.email, sum(a.count)::int as reads, count(distinct a.user_id)::int as patients
        from ${auditLog} a
        join ${clinicians} cl on cl.user_id = a.actor_user_id
        join ${users} u on u.id = a.actor_user_id
        where a.actor_kind = 'clinician'
          and a.at >= ${day.start.toISOString()}::timestamptz and a.at < ${day.end.toISOString()}::timestamptz
          and not exists (
            select 1 from ${consultations} c where c.user_id = a.user_id and c.provider_id = cl.provider_id)
        group by a.actor_user_id, u.email
        order by reads desc, u.email`);
      return result.rows;
    },

    /**
     * Clinicians whose entries on the day are above `factor` times the median of their daily
     * entries over the `days` days before (the clinic's days; days without any counted as 0) and
     * above `floor`.
     */
    async readsAboveUsual(day: BoardDay, rule: { factor: number; floor: number; days: number }) {
      const start = day.start.toISOString();
      const result = await db.execute<ReadsRow & { median: number }>(sql`
        with today as (
          select a.actor_user_id, sum(a.count)::int as reads
          from ${auditLog} a
          where a.actor_kind = 'clinician' and a.actor_user_id is not null
            and a.at >= ${start}::timestamptz and a.at < ${day.end.toISOString()}::timestamptz
          group by a.actor_user_id
        ),
        days as (
          select (${day.day}::date - g.k)::timestamp at time zone ${day.timeZone} as start,
            (${day.day}::date - g.k + 1)::timestamp at time zone ${day.timeZone} as "end"
          from generate_series(1, ${rule.days}::int) as g(k)
        ),
        history as (
          select t.actor_user_id, d.start, coalesce((
            select sum(a.count) from ${auditLog} a
            where a.actor_user_id = t.actor_user_id and a.actor_kind = 'clinician'
              and a.at >= d.start and a.at < d."end"), 0) as reads
          from today t
          cross join days d
        ),
        usual as (
          select actor_user_id, percentile_cont(0.5) within group (order by reads)::float8 as median
          from history group by actor_user_id
        )
        select t.actor_user_id, u.email, t.reads, usual.median
        from today t
        join usual on usual.actor_user_id = t.actor_user_id
        join ${users} u on u.id = t.actor_user_id
        where t.reads > ${rule.floor} and t.reads > ${rule.factor} * usual.median
        order by t.reads desc, u.email`);
      return result.rows;
    },
  };
}
