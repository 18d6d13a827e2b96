import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { eq } from "drizzle-orm";
import type { DbHandle, Executor } from "./client.ts";
import { clinicianSchedules, clinicians, clinicianWeeklyHours, providers, users } from "./schema.ts";
import { SEED_DEMO_CLINICIAN } from "./seed-data.ts";
import {
  DEFAULT_PROVIDER_SEED,
  type GeneratedProvider,
  generateProvider,
  upsertProviders,
} from "./seed-providers.ts";

/** Weekly hours as a demo clinician keeps them: ISO weekdays, "HH:MM" wall times, visit types. */
type DemoHours = { days: number[]; start: string; end: string; types: ConsultationType[] };

export type DemoBookingClinician = {
  email: string;
  firstName: string;
  lastName: string;
  credentials: GeneratedProvider["credentials"];
  slug: string;
  specializationSlugs: string[];
  conditionSlugs: string[];
  states: string[];
  languages: string[];
  types: ConsultationType[];
  timeZone: string;
  hours: DemoHours[];
  bioEn: string;
  bioBg: string;
};

const WEEKDAYS = [1, 2, 3, 4, 5];

/**
 * Demo clinicians who take bookings (ADR 059), so that a newcomer sees real free times after
 * `npm start`: different specializations, states, visit types, zones and hours. They sign in with
 * DEMO_CLINICIAN's password (and set up a second factor at their first sign-in); the demo clinician
 * itself (Casey Carter) gets office hours too.
 */
export const DEMO_BOOKING_CLINICIANS: readonly DemoBookingClinician[] = Object.freeze([
  {
    email: "maya.lin@clinicians.ambercare.example",
    firstName: "Maya",
    lastName: "Lin",
    credentials: "MD",
    slug: "maya-lin-demo",
    specializationSlugs: ["dermatology"],
    conditionSlugs: ["acne", "eczema", "rash", "psoriasis", "rosacea"],
    states: ["CA", "OR", "WA"],
    languages: ["en"],
    types: ["video"],
    timeZone: "America/Los_Angeles",
    hours: [
      { days: [1, 3, 5], start: "08:00", end: "12:00", types: ["video"] },
      { days: [1, 3, 5], start: "13:00", end: "16:00", types: ["video"] },
    ],
    bioEn: "Demo dermatologist who takes booked video visits on the West Coast.",
    bioBg: "Демонстрационен дерматолог, който приема записани видео консултации на Западното крайбрежие.",
  },
  {
    email: "daniel.okafor@clinicians.ambercare.example",
    firstName: "Daniel",
    lastName: "Okafor",
    credentials: "NP",
    slug: "daniel-okafor-demo",
    specializationSlugs: ["mental-health"],
    conditionSlugs: ["anxiety", "depression", "insomnia"],
    states: ["NY", "NJ", "PA", "MA"],
    languages: ["en"],
    types: ["chat", "video"],
    timeZone: "America/New_York",
    hours: [
      { days: [2, 4], start: "12:00", end: "20:00", types: ["chat", "video"] },
      { days: [6], start: "10:00", end: "14:00", types: ["video"] },
    ],
    bioEn: "Demo mental health nurse practitioner with evening and Saturday hours.",
    bioBg: "Демонстрационен специалист по психично здраве с вечерни и съботни часове.",
  },
  {
    email: "sofia.ramirez@clinicians.ambercare.example",
    firstName: "Sofia",
    lastName: "Ramirez",
    credentials: "MD",
    slug: "sofia-ramirez-demo",
    specializationSlugs: ["pediatrics"],
    conditionSlugs: ["ear-infection", "diaper-rash", "head-lice"],
    states: ["TX", "FL", "AZ"],
    languages: ["en", "es"],
    types: ["chat"],
    timeZone: "America/Chicago",
    hours: [{ days: WEEKDAYS, start: "07:00", end: "11:00", types: ["chat"] }],
    bioEn: "Demo pediatrician who answers booked chat visits on weekday mornings.",
    bioBg: "Демонстрационен педиатър, който отговаря на записани чат консултации в делнични сутрини.",
  },
  {
    email: "owen.brooks@clinicians.ambercare.example",
    firstName: "Owen",
    lastName: "Brooks",
    credentials: "PA",
    slug: "owen-brooks-demo",
    specializationSlugs: ["urgent-care", "primary-care"],
    conditionSlugs: ["cold-and-flu", "sore-throat", "bronchitis", "pink-eye", "fever"],
    states: ["CO", "UT", "NV", "AZ", "NM"],
    languages: ["en"],
    types: ["chat", "video"],
    timeZone: "America/Denver",
    hours: [
      { days: [1, 2, 3, 4, 5, 6, 7], start: "06:00", end: "10:00", types: ["chat"] },
      { days: [1, 2, 3, 4, 5, 6, 7], start: "10:00", end: "18:00", types: ["chat", "video"] },
      { days: [1, 2, 3, 4, 5, 6, 7], start: "18:00", end: "22:00", types: ["chat"] },
    ],
    bioEn: "Demo urgent care physician assistant, every day from early morning to late evening.",
    bioBg: "Демонстрационен лекарски асистент за спешни състояния, всеки ден от ранна сутрин до късна вечер.",
  },
  {
    email: "elena.petrova@clinicians.ambercare.example",
    firstName: "Elena",
    lastName: "Petrova",
    credentials: "MD",
    slug: "elena-petrova-demo",
    specializationSlugs: ["womens-health"],
    conditionSlugs: ["urinary-tract-infection", "yeast-infection", "birth-control", "menopause-symptoms"],
    states: ["IL", "MI", "OH", "WI", "MN"],
    languages: ["en", "bg"],
    types: ["video"],
    timeZone: "America/Chicago",
    hours: [{ days: [1, 2, 3, 4], start: "14:00", end: "19:00", types: ["video"] }],
    bioEn: "Demo women's health physician with afternoon video visits; speaks English and Bulgarian.",
    bioBg:
      "Демонстрационен лекар по женско здраве със следобедни видео консултации; говори английски и български.",
  },
]);

/** The demo clinician's own office hours: weekdays 09:00–17:00 Eastern, chat and video. */
const DEMO_CLINICIAN_HOURS = {
  timeZone: "America/New_York",
  hours: [{ days: WEEKDAYS, start: "09:00", end: "17:00", types: ["chat", "video"] }] as DemoHours[],
};

const minutesOf = (wall: string) => {
  const [hours, minutes] = wall.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
};

/** A schedule is written once: the clinician may have changed it since. */
async function seedSchedule(
  tx: Executor,
  clinicianUserId: string,
  schedule: { timeZone: string; hours: DemoHours[] },
  now: Date,
): Promise<boolean> {
  const [created] = await tx
    .insert(clinicianSchedules)
    .values({ clinicianUserId, timeZone: schedule.timeZone, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: clinicianSchedules.clinicianUserId });
  if (!created) return false;
  const rows = schedule.hours.flatMap((range) =>
    range.days.map((weekday) => ({
      clinicianUserId,
      weekday,
      startMinute: minutesOf(range.start),
      endMinute: minutesOf(range.end),
      visitTypes: range.types,
    })),
  );
  if (rows.length > 0) await tx.insert(clinicianWeeklyHours).values(rows);
  return true;
}

export function demoBookingProvider(clinician: DemoBookingClinician, index: number): GeneratedProvider {
  return {
    ...generateProvider(DEFAULT_PROVIDER_SEED, 1000 + index),
    slug: clinician.slug,
    firstName: clinician.firstName,
    lastName: clinician.lastName,
    credentials: clinician.credentials,
    photoPath: null,
    bioEn: clinician.bioEn,
    bioBg: clinician.bioBg,
    languages: clinician.languages,
    visitTypes: [...clinician.types],
    availableToday: false,
    specializationSlugs: clinician.specializationSlugs,
    conditionSlugs: clinician.conditionSlugs,
    states: [...clinician.states].filter((state) => (US_STATE_CODES as readonly string[]).includes(state)),
  };
}

/**
 * The demo clinicians who take bookings, with their providers, accounts and weekly hours, and office
 * hours for the demo clinician (run after `seedDemoData` with the demo accounts). Accounts and
 * schedules that exist are left alone. Answers how many schedules were written.
 */
export async function seedDemoBooking(handle: Pick<DbHandle, "db">, now: Date = new Date()): Promise<number> {
  return handle.db.transaction(async (tx) => {
    await upsertProviders(tx, DEMO_BOOKING_CLINICIANS.map(demoBookingProvider));
    let written = 0;
    for (const clinician of DEMO_BOOKING_CLINICIANS) {
      await tx
        .insert(users)
        .values({
          email: clinician.email,
          passwordHash: SEED_DEMO_CLINICIAN.passwordHash,
          firstName: clinician.firstName,
          lastName: clinician.lastName,
          role: "clinician",
          emailConfirmedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: users.email });
      const [account] = await tx
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.email, clinician.email));
      const [provider] = await tx
        .select({ id: providers.id })
        .from(providers)
        .where(eq(providers.slug, clinician.slug));
      if (account?.role !== "clinician" || !provider) continue;
      await tx
        .insert(clinicians)
        .values({ userId: account.id, providerId: provider.id, createdAt: now })
        .onConflictDoNothing();
      const [link] = await tx
        .select({ providerId: clinicians.providerId })
        .from(clinicians)
        .where(eq(clinicians.userId, account.id));
      if (link?.providerId !== provider.id) continue;
      if (await seedSchedule(tx, account.id, clinician, now)) written += 1;
    }
    const [demo] = await tx
      .select({ userId: clinicians.userId })
      .from(clinicians)
      .innerJoin(users, eq(users.id, clinicians.userId))
      .where(eq(users.email, DEMO_CLINICIAN.email));
    if (demo && (await seedSchedule(tx, demo.userId, DEMO_CLINICIAN_HOURS, now))) written += 1;
    return written;
  });
}
