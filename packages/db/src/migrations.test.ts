import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
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

/**
 * A database migrated to just before the migration tagged `tag`, given the rows `before` writes,
 * then migrated to the end; removed after the tests of the `describe` that calls it.
 */
function migratedAcross(tag: string, before: (handle: TestDb) => Promise<void>): { readonly handle: TestDb } {
  let folder: string | undefined;
  let handle: TestDb | undefined;
  beforeAll(async () => {
    folder = await migrationsBefore(tag);
    handle = await createTestDb({ migrationsFolder: folder });
    await before(handle);
    await runMigrations(handle);
  });
  afterAll(async () => {
    await handle?.cleanup();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return {
    get handle() {
      if (!handle) throw new Error(`The database before ${tag} is not ready`);
      return handle;
    },
  };
}

describe("0008_directory_translations", () => {
  const migrated = migratedAcross("0008_directory_translations", async (handle) => {
    await handle.db.execute(sql`insert into specializations (slug, name_en, name_bg, description_en, description_bg)
      values ('dermatology', 'Dermatology', 'Дерматология', 'Skin, hair and nails.', 'Кожа, коса и нокти.')`);
    await handle.db.execute(sql`insert into conditions (slug, name_en, name_bg, specialization_id)
      select 'acne', 'Acne', 'Акне', id from specializations where slug = 'dermatology'`);
    await handle.db.execute(sql`insert into providers (slug, first_name, last_name, credentials, bio_en, bio_bg, languages)
      values ('dr-ada-test', 'Ada', 'Test', 'MD', 'A physician.', 'Лекар.', '{en,bg}')`);
  });

  it("moves the Bulgarian texts into each row's translations and keeps English in place", async () => {
    const rows = await migrated.handle.db.execute(sql`
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
    const { db } = migrated.handle;
    const left = await db.execute(sql`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name like '%\_bg'`);
    expect(left.rows).toEqual([]);
  });
});

describe("0021_intake_version", () => {
  const intake = {
    patient: "self",
    dependent: null,
    gender: "female",
    state: "CA",
    symptoms: ["Fever"],
    symptoms_started_on: "2026-03-08",
  };
  const migrated = migratedAcross("0021_intake_version", async (handle) => {
    await handle.db.execute(sql`insert into users (email, password_hash) values ('intake@example.org', 'x')`);
    await handle.db.execute(sql`insert into consultations (user_id, type, status, state, intake)
      select id, 'chat', 'requested', 'CA', ${JSON.stringify(intake)}::jsonb from users
      union all select id, 'video', 'requested', null, null from users`);
  });

  it("gives every existing consultation intake version 1 and keeps its answers", async () => {
    const rows = await migrated.handle.db.execute(
      sql`select type, intake, intake_version from consultations order by type`,
    );
    expect(rows.rows).toEqual([
      { type: "chat", intake, intake_version: 1 },
      { type: "video", intake: null, intake_version: 1 },
    ]);
  });

  it("refuses a version below 1", async () => {
    const { db } = migrated.handle;
    await expect(db.execute(sql`update consultations set intake_version = 0`)).rejects.toThrow();
  });
});

describe("0022_provider_visit_types", () => {
  const migrated = migratedAcross("0022_provider_visit_types", async (handle) => {
    await handle.db.execute(sql`insert into providers (slug, first_name, last_name, credentials, bio_en, languages, offers_chat, offers_video)
      values ('dr-both', 'Ada', 'Both', 'MD', 'A physician.', '{en}', true, true),
        ('dr-chat', 'Bo', 'Chat', 'NP', 'A nurse practitioner.', '{en}', true, false),
        ('dr-video', 'Cy', 'Video', 'PA', 'A physician assistant.', '{en}', false, true)`);
  });

  it("keeps what each provider offered, as the list of its kinds of visit", async () => {
    const rows = await migrated.handle.db.execute(sql`select slug, visit_types from providers order by slug`);
    expect(rows.rows).toEqual([
      { slug: "dr-both", visit_types: ["chat", "video"] },
      { slug: "dr-chat", visit_types: ["chat"] },
      { slug: "dr-video", visit_types: ["video"] },
    ]);
  });

  it("drops the per-kind columns", async () => {
    const left = await migrated.handle.db.execute(sql`select column_name from information_schema.columns
      where table_schema = 'public' and table_name = 'providers' and column_name like 'offers\_%'`);
    expect(left.rows).toEqual([]);
  });

  it("refuses a provider with no kind of visit or a kind the list does not have", async () => {
    const insert = (kinds: string) =>
      migrated.handle.db.execute(sql`insert into providers (slug, first_name, last_name, credentials, bio_en, languages, visit_types)
        values (${`dr-${kinds.length}`}, 'Di', 'Kinds', 'MD', 'A physician.', '{en}', ${kinds}::text[])`);
    await expect(insert("{}")).rejects.toThrow();
    await expect(insert("{chat,fax}")).rejects.toThrow();
    await insert(`{${VISIT_TYPE_IDS.join(",")}}`);
  });
});
