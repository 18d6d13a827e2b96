import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEMO_PATIENT } from "@ambercare/contracts/demo";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "./client.ts";
import { users } from "./schema.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("./seed-cli.ts", import.meta.url));

/** Runs `npm run seed` (its script) on a PGlite of its own, then counts demo patients there. */
async function seedAndCountDemoPatients(env: Record<string, string>): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-seed-cli-"));
  dirs.push(dataDir);
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  await run(process.execPath, ["--import", "tsx", CLI], { env: { ...inherited, DATA_DIR: dataDir, ...env } });
  const handle = await createDb({ dataDir });
  try {
    const rows = await handle.db.select().from(users).where(eq(users.email, DEMO_PATIENT.email));
    return rows.length;
  } finally {
    await handle.close();
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("npm run seed", () => {
  it("creates the demo patient outside production only, or when SEED_DEMO_PATIENT=true asks", async () => {
    expect(await seedAndCountDemoPatients({ NODE_ENV: "production" })).toBe(0);
    expect(await seedAndCountDemoPatients({ NODE_ENV: "production", SEED_DEMO_PATIENT: "true" })).toBe(1);
    expect(await seedAndCountDemoPatients({ NODE_ENV: "development" })).toBe(1);
  }, 60_000);
});
