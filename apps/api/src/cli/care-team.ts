import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import { isLocale, type Locale } from "@ambercare/contracts/locales";
import { EnvError } from "@ambercare/contracts/server-env";
import { createDb } from "@ambercare/db/client";
import { runMigrations } from "@ambercare/db/migrate";
import pino from "pino";
import { totpCodeAt } from "#api/modules/accounts/second-factor-codes.ts";
import { CareTeamError, type CareTeamService } from "#api/modules/care-console/care-team-service.ts";
import { type OperationsService, OperatorError } from "#api/modules/operations/operations-service.ts";
import { systemClock } from "#api/platform/clock.ts";
import { loadConfig } from "#api/platform/config.ts";
import { buildServices } from "#api/services.ts";

/**
 * `npm run care-team -- <command>`: the operator's commands for clinician accounts, on the database
 * the API uses (PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR; PGlite is one process's
 * at a time, so stop the API first). Exit codes: 0 done, 1 refused (the message says why),
 * 2 wrong arguments (the usage is printed).
 */

export const USAGE = `Usage: npm run care-team -- <command>

Commands:
  invite --email <address> --provider <slug> [--locale en|bg]
      Create the clinician account of a directory provider (or invite it again) and e-mail a
      link to choose a password. The account must then set up two-step login.
  list
      Every clinician account: e-mail, provider, two-step login, state.
  disable --email <address>
      End every session of the account and refuse its logins from now on.
  operator --email <address> [--locale en|bg]
      Create an operator account (or send its link again) and e-mail a link to choose a password.
      The operator must then set up two-step login before /operations opens.
  demo-code
      The current two-step login code of the demo clinician (${DEMO_CLINICIAN.email}).
`;

export type CareTeamIo = {
  careTeam: Pick<CareTeamService, "invite" | "list" | "disable">;
  operations: Pick<OperationsService, "createOperator">;
  out: (line: string) => void;
  err: (line: string) => void;
  now?: () => Date;
};

class UsageError extends Error {}

function readOptions(args: string[], names: { email?: true; provider?: true; locale?: true }) {
  const options = Object.fromEntries(Object.keys(names).map((name) => [name, { type: "string" as const }]));
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function emailOption(values: Record<string, string | undefined>): string {
  const email = required(values, "email");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new UsageError(`--email is not an e-mail address: ${email}`);
  return email;
}

/** Runs one command against `io.careTeam`; answers the process's exit code. */
export async function runCareTeamCommand(argv: readonly string[], io: CareTeamIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case "invite": {
        const values = readOptions(args, { email: true, provider: true, locale: true });
        const email = emailOption(values);
        const providerSlug = required(values, "provider");
        const locale = values.locale;
        if (locale !== undefined && !isLocale(locale)) throw new UsageError(`--locale must be en or bg`);
        const result = await io.careTeam.invite({
          email,
          providerSlug,
          ...(locale ? { locale: locale as Locale } : {}),
        });
        const verb = result.outcome === "invited" ? "Invited" : "Invited again";
        io.out(
          `${verb} ${result.email} as ${result.provider.firstName} ${result.provider.lastName}, ${result.provider.credentials} (${result.provider.slug}); the set-password link was e-mailed.`,
        );
        return 0;
      }
      case "list": {
        readOptions(args, {});
        const rows = await io.careTeam.list();
        if (rows.length === 0) {
          io.out("No clinician accounts.");
          return 0;
        }
        io.out(["E-MAIL", "PROVIDER", "NAME", "TWO-STEP", "STATE"].join("\t"));
        for (const row of rows) {
          const state = row.disabledAt ? `disabled ${row.disabledAt.toISOString()}` : "active";
          io.out(
            [
              row.email,
              row.providerSlug,
              row.providerName,
              row.secondFactorEnabled ? "on" : "off",
              state,
            ].join("\t"),
          );
        }
        return 0;
      }
      case "disable": {
        const values = readOptions(args, { email: true });
        const email = emailOption(values);
        const result = await io.careTeam.disable(email);
        io.out(
          `Disabled ${email.toLowerCase()}: ${result.sessionsEnded} session(s) ended; its logins are refused.`,
        );
        return 0;
      }
      case "operator": {
        const values = readOptions(args, { email: true, locale: true });
        const email = emailOption(values);
        const locale = values.locale;
        if (locale !== undefined && !isLocale(locale)) throw new UsageError(`--locale must be en or bg`);
        const result = await io.operations.createOperator({
          email,
          ...(locale ? { locale: locale as Locale } : {}),
        });
        const verb =
          result.outcome === "created" ? "Created the operator" : "Sent a new link to the operator";
        io.out(`${verb} ${result.email}; the set-password link was e-mailed.`);
        return 0;
      }
      case "demo-code": {
        readOptions(args, {});
        io.out(totpCodeAt(DEMO_CLINICIAN.totp_secret, io.now?.() ?? new Date()));
        return 0;
      }
      default:
        throw new UsageError(command ? `Unknown command: ${command}` : "No command given");
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof CareTeamError || error instanceof OperatorError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

/** The command as a process: the API's config, database and services (services.ts). */
async function main(argv: string[]): Promise<number> {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  // Usage and the demo code need no database: answer them before opening it.
  if (!["invite", "list", "disable", "operator"].includes(argv[0] ?? "")) {
    return runCareTeamCommand(argv, { ...io, ...unavailable() });
  }
  const config = loadConfig();
  const db = await createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const services = buildServices(db, config, { clock: systemClock, log: pino({ level: "warn" }) });
  try {
    await runMigrations(db);
    return await runCareTeamCommand(argv, {
      ...io,
      careTeam: services.careTeam,
      operations: services.operations,
    });
  } finally {
    await services.mailer.close();
    await db.close();
  }
}

function unavailable(): Pick<CareTeamIo, "careTeam" | "operations"> {
  const fail = () => Promise.reject(new Error("no database"));
  return { careTeam: { invite: fail, list: fail, disable: fail }, operations: { createOperator: fail } };
}

const isMain =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(
        error instanceof EnvError
          ? error.message
          : `care-team failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exitCode = 1;
    },
  );
}
