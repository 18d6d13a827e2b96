import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DbHandle } from "@ambercare/db/client";
import { seedDemoData } from "@ambercare/db/seed";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { type App, buildApp } from "#api/app.ts";
import type { Clock } from "#api/clock.ts";
import { type ApiConfig, loadConfig } from "#api/config.ts";

/** Test-only helpers (imported by *.test.ts files only). */

export const TEST_PUBLIC_API_TOKEN = "test-public-token-0123456789abcdef";

/** A complete config as the API would parse it, with every secret given so nothing is written. */
export function testConfig(overrides: Record<string, string> = {}): ApiConfig {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    // Never written to: every secret is given, and tests use createTestDb().
    DATA_DIR: join(tmpdir(), "ambercare-api-test"),
    PUBLIC_API_TOKEN: TEST_PUBLIC_API_TOKEN,
    SERVICE_ACCOUNT_EMAIL: "service@ambercare.test",
    SERVICE_ACCOUNT_PASSWORD: "service-password-for-tests",
    ...overrides,
  });
}

/** Collects the JSON log lines the app writes. */
export function createLogCapture() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(""),
  };
}

export type TestApp = { app: App; db: TestDb; close(): Promise<void> };

/** A migrated (and by default seeded) test database with the app built on it, not yet ready. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    seed?: boolean;
    clock?: Clock;
    logStream?: { write(line: string): void };
    db?: TestDb;
    /** Replace the handle the app sees (e.g. one whose ping fails). */
    wrapDb?: (db: DbHandle) => DbHandle;
  } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDb());
  if (options.seed ?? true) await seedDemoData(db);
  const app = await buildApp(testConfig(options.env), {
    db: options.wrapDb ? options.wrapDb(db) : db,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  return {
    app,
    db,
    async close() {
      await app.close();
      if (!options.db) await db.cleanup();
    },
  };
}
