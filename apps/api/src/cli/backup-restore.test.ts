import { execFile } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_CARDS } from "@ambercare/contracts/membership";
import type { BackupManifest } from "@ambercare/db/backup";
import { createDb, type DbHandle } from "@ambercare/db/client";
import { providerLicenses, providerPhotos, providers } from "@ambercare/db/schema";
import { createTestDb } from "@ambercare/db/testing";
import pg from "pg";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import {
  bearer,
  createTestApp,
  offerEveryVisitType,
  registerClinician,
  registerOperator,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

/**
 * `npm run backup` and `npm run restore`, run as the operator runs them (a process each), on a
 * database with one patient's whole story: a paid visit, its chat, the clinician's notes and two
 * documents, and a provider's photo an operator uploaded. The restored database must hold every row
 * of every table as it was (the photo's bytes among them, ADR 070), and the documents the same bytes.
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const CLI = join(ROOT, "packages/db/src/backup-cli.ts");
const STATE = "OR";
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(4096)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2048)]);
const SECRETS = JSON.stringify({ SECOND_FACTOR_KEY: "test-second-factor-key-0123456789abcdef" });

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

type Run = { code: number; stdout: string; stderr: string };
function run(
  args: string[],
  env: { DATABASE_URL?: string | undefined; DATA_DIR: string },
  secrets: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", CLI, ...args],
      // An empty DATABASE_URL means PGlite, also where the developer's .env names a server.
      {
        cwd: ROOT,
        env: { ...process.env, ...secrets, DATABASE_URL: env.DATABASE_URL ?? "", DATA_DIR: env.DATA_DIR },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every row of every table, as PostgreSQL writes it in JSON, sorted: equal maps are equal data. */
async function everyRow(handle: DbHandle): Promise<Record<string, string[]>> {
  const tables = (
    await handle.db.execute<{ name: string }>(
      `select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
    )
  ).rows;
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const result = await handle.db.execute<{ row: string }>(
      `select row_to_json(t)::text as row from ${name} t`,
    );
    rows[name] = result.rows.map((r) => r.row).sort();
  }
  return rows;
}

/** One patient's visit, paid for, with chat messages, the clinician's notes and two documents. */
async function patientStory(t: TestApp) {
  const call = (method: "GET" | "POST" | "PUT", url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const upload = (url: string, token: string, name: string, bytes: Buffer) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { ...bearer(token), "content-type": "application/octet-stream", "x-file-name": name },
      payload: bytes,
    });

  const patient = await registerPatient(t.app);
  const checkout = await call("POST", "/ambercare/visit-checkout/", patient.access_token, {
    user_id: patient.user_id,
    plan: "ppv_chat",
  });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const checkoutId = /\/checkout\/([0-9a-f-]{36})$/.exec(checkout.json().data.checkout_url)![1]!;
  const paid = await call("POST", `/ambercare/checkout/${checkoutId}/pay`, patient.access_token, {
    card_number: TEST_CARDS.success,
    exp_month: "12",
    exp_year: "2030",
    cvc: "123",
    name: "Jane Doe",
  });
  expect(paid.statusCode, paid.body).toBe(200);

  const clinician = await registerClinician(t, new Date());
  await offerEveryVisitType(t.db.db, clinician.providerId);
  await t.db.db
    .insert(providerLicenses)
    .values({ providerId: clinician.providerId, state: STATE })
    .onConflictDoNothing();
  const requested = await call("POST", "/ambercare/create-consultation", patient.access_token, {
    idempotency_key: randomUUID(),
    type: "chat",
    intake: {
      patient: "self",
      gender: "female",
      race: "White",
      ethnicity: "Not Hispanic or Latino",
      state: STATE,
      symptoms: ["Cough", "Fever"],
      symptoms_started_on: "2026-06-28",
      recent_travel: false,
    },
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
  });
  expect(requested.statusCode, requested.body).toBe(201);
  const visitId: string = requested.json().data.id;
  const visit = `/api/v1/api/care-team/visits/${visitId}`;
  const accepted = await call("POST", `${visit}/accept`, clinician.access_token);
  expect(accepted.statusCode, accepted.body).toBe(200);

  for (const [url, token, body] of [
    [`/ambercare/consultations/${visitId}/messages`, patient.access_token, "The cough is worse at night."],
    [`${visit}/messages`, clinician.access_token, "Any fever today?"],
    [`/ambercare/consultations/${visitId}/messages`, patient.access_token, "38.2 this morning."],
  ] as const) {
    const sent = await call("POST", url, token, { body });
    expect(sent.statusCode, sent.body).toBe(201);
  }
  const notes = await call("PUT", `${visit}/notes`, clinician.access_token, {
    subjective: "Cough for 3 days, worse at night",
    objective: "Temp 38.2",
    assessment: "Viral bronchitis",
    plan: "Fluids, rest",
    version: 0,
  });
  expect(notes.statusCode, notes.body).toBe(200);
  const attached = await upload(
    `/ambercare/consultations/${visitId}/attachments`,
    patient.access_token,
    "blood-test.pdf",
    PDF,
  );
  expect(attached.statusCode, attached.body).toBe(201);
  const filed = await upload("/ambercare/medical-records/documents", patient.access_token, "x-ray.png", PNG);
  expect(filed.statusCode, filed.body).toBe(201);
  return { patient, visitId };
}

/** An operator uploads a provider's photo: it is kept in the database (ADR 070). Answers its name and bytes. */
async function providerPhoto(t: TestApp) {
  const operator = await registerOperator(t, new Date());
  const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
  const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: "#2a7f62" } })
    .png()
    .toBuffer();
  const uploaded = await t.app.inject({
    method: "PUT",
    url: `/api/v1/api/operations/directory/providers/${provider!.id}/photo`,
    headers: { ...bearer(operator.access_token), "content-type": "application/octet-stream" },
    payload: png,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const name = (uploaded.json().data.photo as string).split("/").pop()!;
  const served = await t.app.inject({ method: "GET", url: `/api/v1/api/provider-photos/${name}` });
  expect(served.statusCode).toBe(200);
  return { hash: name.slice(0, 32), bytes: served.rawPayload };
}

type Target = { url?: string; dataDir: string; drop(): Promise<void> };

/** An empty database to restore into: a fresh DATA_DIR (PGlite), or a new database on the server. */
async function emptyTarget(serverUrl: string | undefined): Promise<Target> {
  const dataDir = tempDir("ambercare-restore-");
  if (!serverUrl) return { dataDir, drop: async () => undefined };
  const name = `ambercare_test_${randomBytes(6).toString("hex")}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), dataDir, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

// Each run tests its own database: the PGlite case runs with the suites on PGlite, the PostgreSQL
// case in the PostgreSQL pass (TEST_DATABASE_URL), which `npm test` runs after it.
const kinds: Array<readonly [string, string | undefined]> = [
  process.env.TEST_DATABASE_URL ? ["PostgreSQL", process.env.TEST_DATABASE_URL] : ["PGlite", undefined],
];

describe.each(kinds)("a backup on %s", (kind, serverUrl) => {
  it("restores into an empty database every row, every document's bytes and the secrets", async () => {
    const started = Date.now();
    const dataDir = tempDir("ambercare-backup-source-");
    writeFileSync(join(dataDir, "dev-secrets.json"), SECRETS, { mode: 0o600 });
    // On PGlite, its files in the DATA_DIR the commands are given, as the API keeps them.
    const db = await createTestDb({ seeded: true, dataDir });
    const t = await createTestApp({
      db,
      seed: false,
      env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: "100000", WEB_URL: "http://web.test" },
    });
    const target = await emptyTarget(serverUrl);
    try {
      const { patient, visitId } = await patientStory(t);
      const photo = await providerPhoto(t);
      await t.app.close();
      const before = await everyRow(db);
      const invoice = before["public.invoices"]!.find((row) => row.includes(patient.user_id));
      const invoiceId = (JSON.parse(invoice ?? "{}") as { id?: string }).id ?? "no invoice";
      for (const [table, needle] of [
        ["public.payments", invoiceId],
        ["public.consultations", visitId],
        ["public.consultation_messages", "38.2 this morning."],
        ["public.visit_notes", "Viral bronchitis"],
        ["public.medical_documents", "blood-test.pdf"],
        ["public.medical_documents", "x-ray.png"],
        ["public.provider_photos", photo.hash],
      ] as const) {
        expect(
          before[table]!.some((row) => row.includes(needle)),
          `${table} has ${needle}`,
        ).toBe(true);
      }

      const out = tempDir("ambercare-backups-");
      const source = { DATABASE_URL: db.url, DATA_DIR: dataDir };
      if (!serverUrl) {
        // The embedded database is one process's: while this one has it open, a backup is refused.
        const refused = await run(["backup", "--out", out], source);
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stderr).toMatch(/open in another process.*Stop the API/s);
        await db.close();
      }
      // The VAPID pair from the environment, as a production deployment sets it: the backup cannot
      // hold it, and says so, since without it every stored push subscription goes silent.
      const vapid = { VAPID_PUBLIC_KEY: "public-key-from-the-environment", VAPID_PRIVATE_KEY: "private-key" };
      const backup = await run(["backup", "--out", out], source, vapid);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stderr).toMatch(/VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY come\(s\) from the environment/);
      const [name] = readdirSync(out);
      const manifest = JSON.parse(readFileSync(join(out, name!, "manifest.json"), "utf8")) as BackupManifest;
      expect(manifest.database.kind).toBe(serverUrl ? "postgres" : "pglite");
      expect(manifest.secrets).toEqual({
        included: ["SECOND_FACTOR_KEY"],
        notIncluded: ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"],
      });
      expect(manifest.files.map((file) => file.path).sort()).toEqual(
        [
          ...readdirSync(join(dataDir, "uploads")).map((key) => `uploads/${key}`),
          "secrets/dev-secrets.json",
        ].sort(),
      );

      const into = { DATABASE_URL: target.url, DATA_DIR: target.dataDir };
      const restored = await run(["restore", join(out, name!)], into);
      expect(restored.code, restored.stderr).toBe(0);
      // Once it holds data, a second restore is refused, and says how to insist.
      const again = await run(["restore", join(out, name!)], into);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is not empty.*--force/);

      const copy = await createDb(target.url ? { databaseUrl: target.url } : { dataDir: target.dataDir });
      const after = await everyRow(copy);
      // The photo's bytes as the API reads them, not only their JSON form.
      const restoredPhotos = await copy.db
        .select({ hash: providerPhotos.hash, bytes: providerPhotos.bytes })
        .from(providerPhotos)
        .finally(() => copy.close());
      expect(after).toEqual(before);
      expect(restoredPhotos).toHaveLength(1);
      expect(restoredPhotos[0]?.hash).toBe(photo.hash);
      expect(restoredPhotos[0]?.bytes.equals(photo.bytes)).toBe(true);
      const documents = before["public.medical_documents"]!.map(
        (row) => JSON.parse(row) as { storage_key: string; sha256: string; file_name: string },
      );
      for (const document of documents) {
        const bytes = readFileSync(join(target.dataDir, "uploads", document.storage_key));
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(document.sha256);
        expect(bytes.equals(document.file_name === "x-ray.png" ? PNG : PDF)).toBe(true);
      }
      expect(readFileSync(join(target.dataDir, "dev-secrets.json"), "utf8")).toBe(SECRETS);

      const tables = Object.keys(before).length;
      const rows = Object.values(before).reduce((sum, list) => sum + list.length, 0);
      console.info(
        `${kind}: ${tables} tables, ${rows} rows and ${documents.length} documents compared; ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } finally {
      await t.app.close();
      await db.cleanup();
      await target.drop();
    }
    // About 15 s on an idle machine; each of the four commands starts a process and a database.
  }, 120_000);
});
