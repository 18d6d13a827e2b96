import type { DbHandle } from "@ambercare/db/client";
import { runMigrations } from "@ambercare/db/migrate";
import { isDatabaseEmpty, seedDemoData } from "@ambercare/db/seed";
import { seedDemoBooking } from "@ambercare/db/seed-booking";
import { createPasswords } from "#api/modules/accounts/passwords.ts";
import { enableDemoClinicianSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { ensureServiceAccount } from "#api/modules/accounts/service-account.ts";
import { systemClock } from "#api/platform/clock.ts";
import { type ApiConfig, seedsDemoPatient } from "#api/platform/config.ts";

/**
 * The database as the API starts on it: migrated; seeded when empty (the demo accounts, the demo
 * clinician's second factor and the demo clinicians' hours, unless SEED_DEMO_PATIENT says otherwise); the service account made to
 * match the environment. server.ts runs it before listening; the browser journeys' fixture runs it
 * before inviting their clinicians, so the API then finds the database it would have made.
 */
export async function prepareDatabase(
  db: DbHandle,
  config: ApiConfig,
  say: (line: string) => void = () => {},
): Promise<void> {
  await runMigrations(db);
  // Only a fresh database is seeded: on a live one an operator may have edited the catalogue.
  if (await isDatabaseEmpty(db)) {
    const demoAccounts = seedsDemoPatient(config);
    await seedDemoData(db, { demoPatient: demoAccounts });
    if (demoAccounts) {
      await enableDemoClinicianSecondFactor(db.db, config.SECOND_FACTOR_KEY, systemClock.now());
      // Demo clinicians with weekly hours: a newcomer sees real free times (ADR 059).
      await seedDemoBooking(db, systemClock.now());
    } else {
      // Without the demo accounts no provider has a clinician: each says "Not taking visits yet".
      say(
        'Seeded the demo catalogue without demo accounts (ADR 029): no provider takes visits yet. To try booking, a visit and the care console, start a fresh database with SEED_DEMO_PATIENT=true (README, "Trying both sides").',
      );
    }
  }
  await ensureServiceAccount(
    db.db,
    systemClock,
    { email: config.SERVICE_ACCOUNT_EMAIL, password: config.SERVICE_ACCOUNT_PASSWORD },
    createPasswords(config.ARGON2_PARAMS),
  );
}
