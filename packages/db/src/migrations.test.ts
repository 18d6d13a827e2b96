import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, runMigrations } from "./migrate.ts";
import { createTestDb, type TestDb } from "./testing.ts";

/** A copy of the migrations folder that ends before the migration tagged `tag`. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "ambercare-migrations-"));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`No migration tagged ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

describe("0008_directory_translations", () => {
  let folder: string;
  let handle: TestDb;

  beforeAll(async () => {
    folder = await migrationsBefore("0008_directory_translations");
    handle = await createTestDb({ migrationsFolder: folder });
    await handle.db.execute(sql`insert into specializations (slug, name_en, name_bg, description_en, description_bg)
      values ('dermatology', 'Dermatology', 'Дерматология', 'Skin, hair and nails.', 'Кожа, коса и нокти.')`);
    await handle.db.execute(sql`insert into conditions (slug, name_en, name_bg, specialization_id)
      select 'acne', 'Acne', 'Акне', id from specializations where slug = 'dermatology'`);
    await handle.db.execute(sql`insert into providers (slug, first_name, last_name, credentials, bio_en, bio_bg, languages)
      values ('dr-ada-test', 'Ada', 'Test', 'MD', 'A physician.', 'Лекар.', '{en,bg}')`);
    await runMigrations(handle);
  });

  afterAll(async () => {
    await handle?.cleanup();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("moves the Bulgarian texts into each row's translations and keeps English in place", async () => {
    const rows = await handle.db.execute(sql`
      select 'specialization' as kind, name_en as en, translations from specializations
      union all select 'condition', name_en, translations from conditions
      union all select 'provider', bio_en, translations from providers
      order by kind`);
    expect(rows.rows).toEqual([
      { kind: "condition", en: "Acne", translations: { bg: { name: "Акне" } } },
      { kind: "provider", en: "A physician.", translations: { bg: { bio: "Лекар." } } },
      {
        kind: "specialization",
        en: "Dermatology",
        translations: { bg: { name: "Дерматология", description: "Кожа, коса и нокти." } },
      },
    ]);
  });

  it("drops the per-language columns", async () => {
    const left = await handle.db.execute(sql`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name like '%\_bg'`);
    expect(left.rows).toEqual([]);
  });
});

describe("0021_intake_version", () => {
  let folder: string;
  let handle: TestDb;
  const intake = {
    patient: "self",
    dependent: null,
    gender: "female",
    state: "CA",
    symptoms: ["Fever"],
    symptoms_started_on: "2026-03-08",
  };

  beforeAll(async () => {
    folder = await migrationsBefore("0021_intake_version");
    handle = await createTestDb({ migrationsFolder: folder });
    await handle.db.execute(sql`insert into users (email, password_hash) values ('intake@example.org', 'x')`);
    await handle.db.execute(sql`insert into consultations (user_id, type, status, state, intake)
      select id, 'chat', 'requested', 'CA', ${JSON.stringify(intake)}::jsonb from users
      union all select id, 'video', 'requested', null, null from users`);
    await runMigrations(handle);
  });

  afterAll(async () => {
    await handle?.cleanup();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("gives every existing consultation intake version 1 and keeps its answers", async () => {
    const rows = await handle.db.execute(
      sql`select type, intake, intake_version from consultations order by type`,
    );
    expect(rows.rows).toEqual([
      { type: "chat", intake, intake_version: 1 },
      { type: "video", intake: null, intake_version: 1 },
    ]);
  });

  it("refuses a version below 1", async () => {
    await expect(handle.db.execute(sql`update consultations set intake_version = 0`)).rejects.toThrow();
  });
});
