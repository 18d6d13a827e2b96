/**
 * `node --import tsx e2e/invite-clinicians.ts` with the journeys' stack environment, before its API
 * starts (PGlite is one process's at a time): prepares the database as the API would on starting
 * (apps/api/src/database-setup.ts), then invites one clinician per journey of CLINICIAN_JOURNEYS
 * through the care-team command (`npm run care-team -- invite`, with the services the command builds), each as a
 * provider of the demo directory (an MD or a DO, whom the pages call "Dr") offering every kind of
 * visit, whose name no other provider has, licensed in a state none of the others is given. Prints
 * the pool as JSON on its last line.
 */

import { US_STATES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { createDb } from "@ambercare/db/client";
import { providerLicenses, providers } from "@ambercare/db/schema";
import { and, arrayContains, asc, eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
// The API's own additions to Fastify's types (app.db, app.clock…), which its modules rely on.
import type {} from "../apps/api/src/app.ts";
import { runCareTeamCommand } from "../apps/api/src/cli/care-team.ts";
import { prepareDatabase } from "../apps/api/src/database-setup.ts";
import { systemClock } from "../apps/api/src/platform/clock.ts";
import { loadConfig } from "../apps/api/src/platform/config.ts";
import { buildServices } from "../apps/api/src/services.ts";
import { CLINICIAN_JOURNEYS, type ClinicianPool, E2E_OPERATOR_EMAIL } from "./clinician-pool.ts";

const config = loadConfig();
const handle = await createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const services = buildServices(handle, config, { clock: systemClock, log: pino({ level: "warn" }) });
try {
  await prepareDatabase(handle, config);
  const db = handle.db;
  const rows = await db
    .select({
      slug: providers.slug,
      firstName: providers.firstName,
      lastName: providers.lastName,
      state: providerLicenses.state,
    })
    .from(providers)
    .innerJoin(providerLicenses, eq(providerLicenses.providerId, providers.id))
    .where(
      and(
        // Every kind of visit.
        arrayContains(providers.visitTypes, [...VISIT_TYPE_IDS]),
        // Named "Dr …" by the pages, as the journeys say it.
        inArray(providers.credentials, ["MD", "DO"]),
        // Found by name in find-a-doctor: a name only this provider has.
        sql`(select count(*) from ${providers} as same
          where same.first_name = ${providers.firstName} and same.last_name = ${providers.lastName}) = 1`,
        sql`not exists (select 1 from clinicians where clinicians.provider_id = ${providers.id})`,
      ),
    )
    .orderBy(asc(providers.slug), asc(providerLicenses.state));
  // One provider per state, and a state per provider: each journey's visits are its clinician's.
  const candidates: typeof rows = [];
  for (const row of rows) {
    if (candidates.length === CLINICIAN_JOURNEYS.length) break;
    if (candidates.some((taken) => taken.slug === row.slug || taken.state === row.state)) continue;
    candidates.push(row);
  }
  if (candidates.length < CLINICIAN_JOURNEYS.length)
    throw new Error(`only ${candidates.length} providers fit the journeys' clinicians`);

  const { careTeam, operations } = services;
  const pool = {} as ClinicianPool;
  for (const [index, journey] of CLINICIAN_JOURNEYS.entries()) {
    const provider = candidates[index]!;
    const email = `e2e-clinician-${journey}@example.org`;
    const errors: string[] = [];
    const code = await runCareTeamCommand(["invite", "--email", email, "--provider", provider.slug], {
      careTeam,
      operations,
      out: () => undefined,
      err: (line) => errors.push(line),
    });
    if (code !== 0) throw new Error(`care-team invite ${email} exited with ${code}: ${errors.join(" ")}`);
    const state = US_STATES.find((candidate) => candidate.code === provider.state);
    if (!state) throw new Error(`${provider.slug} is licensed in an unknown state ${provider.state}`);
    pool[journey] = {
      email,
      providerSlug: provider.slug,
      name: `${provider.firstName} ${provider.lastName}`,
      state: { code: state.code, name: state.name },
    };
  }
  // The operations journey's operator (ADR 065): created with the command, as a clinic does.
  const operatorErrors: string[] = [];
  const operatorCode = await runCareTeamCommand(["operator", "--email", E2E_OPERATOR_EMAIL], {
    careTeam,
    operations,
    out: () => undefined,
    err: (line) => operatorErrors.push(line),
  });
  if (operatorCode !== 0)
    throw new Error(`care-team operator exited with ${operatorCode}: ${operatorErrors.join(" ")}`);
  console.log(JSON.stringify(pool));
} finally {
  await services.mailer.close();
  await handle.close();
}
