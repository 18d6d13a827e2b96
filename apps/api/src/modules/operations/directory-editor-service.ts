import {
  DIRECTORY_EDITOR_PAGE_SIZE,
  type EditorProvider,
  type EditorProviderListQuery,
  PROVIDER_PHOTO_MAX_BYTES,
  type providerInput,
} from "@ambercare/contracts/directory-editor";
import type { OperatorAction } from "@ambercare/contracts/operations";
import type { PROVIDER_CREDENTIALS } from "@ambercare/contracts/provider-limits";
import type { VisitType } from "@ambercare/contracts/visit-types";
import type { Database, Executor } from "@ambercare/db/client";
import { licenceDay } from "@ambercare/db/schema";
import type { z } from "zod";
import { createDirectoryEditorRepository } from "#api/modules/operations/directory-editor-repository.ts";
import { createOperationsRepository } from "#api/modules/operations/operations-repository.ts";
import type { OperatorActor } from "#api/modules/operations/operations-service.ts";
import {
  PROVIDER_PHOTO_URL_PREFIX,
  type ProviderPhotoService,
  photoKindOf,
} from "#api/modules/operations/provider-photo-service.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

type Input = z.output<typeof providerInput>;
type Credentials = (typeof PROVIDER_CREDENTIALS)[number];

/** The side of the square a photo is stored at (the directory shows it at 112 CSS px, twice for 2x). */
const PHOTO_SIDE = 512;
const PHOTO_MAX_PIXELS = 40_000_000;

export type DirectoryEditorDeps = {
  db: Database;
  clock: Clock;
  /** Where the photos are kept: the database every host shares (ADR 070). */
  photos: ProviderPhotoService;
  /** Every API process drops its copy of the directory (after the change committed). */
  directoryChanged: () => Promise<void>;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
};

function notFound(): AppError {
  return new AppError("PROVIDER_NOT_FOUND", 404, "No provider has this id");
}

/** Which of the editable parts an update changed: the operations log names them, never the texts. */
function changedParts(before: EditorProvider, after: Input): string[] {
  const parts: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (before.slug !== after.slug) parts.push("slug");
  if (before.first_name !== after.first_name || before.last_name !== after.last_name) parts.push("name");
  if (before.credentials !== after.credentials) parts.push("credentials");
  if (!same(before.bio, after.bio)) parts.push("bio");
  if (!same([...before.specializations].sort(), [...after.specializations].sort()))
    parts.push("specializations");
  if (!same([...before.conditions].sort(), [...after.conditions].sort())) parts.push("conditions");
  if (!same(before.languages, after.languages)) parts.push("languages");
  if (!same([...before.visit_types].sort(), [...after.visit_types].sort())) parts.push("visit_types");
  const licences = (list: { state: string; expires_on: string | null }[]) =>
    [...list].sort((a, b) => a.state.localeCompare(b.state)).map((l) => `${l.state}:${l.expires_on ?? ""}`);
  if (!same(licences(before.licences), licences(after.licences))) parts.push("licences");
  return parts;
}

/**
 * The directory editor (ADR 065): an operator creates, edits, unlists and lists again providers,
 * uploads their photo and keeps their licences by state with expiry dates. Each change is written
 * to the operations log in its transaction, then every API process is told to drop its copy of the
 * directory, so patients see it at once.
 */
export function createDirectoryEditorService(deps: DirectoryEditorDeps) {
  const { db, clock } = deps;

  const record = (
    tx: Executor,
    actor: OperatorActor,
    action: OperatorAction,
    providerId: string,
    detail: Record<string, string | number | boolean | null>,
  ) =>
    createOperationsRepository(tx).recordAction({
      actorUserId: actor.userId,
      action,
      targetType: "provider",
      targetId: providerId,
      detail,
      ip: actor.ip,
      at: clock.now(),
    });

  async function toEditorProviders(
    executor: Executor,
    rows: NonNullable<Awaited<ReturnType<ReturnType<typeof createDirectoryEditorRepository>["byId"]>>>[],
  ): Promise<EditorProvider[]> {
    const links = await createDirectoryEditorRepository(executor).linksOf(rows.map((row) => row.id));
    const today = licenceDay(clock.now(), deps.timeZone);
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      first_name: row.firstName,
      last_name: row.lastName,
      credentials: row.credentials as Credentials,
      photo: row.photoPath,
      bio: { en: row.bioEn, bg: row.translations.bg?.bio ?? "" },
      specializations: links.specializations.filter((l) => l.providerId === row.id).map((l) => l.slug),
      conditions: links.conditions.filter((l) => l.providerId === row.id).map((l) => l.slug),
      languages: row.languages,
      visit_types: row.visitTypes,
      licences: links.licences
        .filter((l) => l.providerId === row.id)
        .map((l) => ({
          state: l.state,
          expires_on: l.expiresOn,
          in_force: l.expiresOn === null || l.expiresOn >= today,
        })),
      unlisted_at: row.unlistedAt?.toISOString() ?? null,
    }));
  }

  async function one(executor: Executor, id: string, lock = false): Promise<EditorProvider> {
    const row = await createDirectoryEditorRepository(executor).byId(id, lock);
    if (!row) throw notFound();
    const [provider] = await toEditorProviders(executor, [row]);
    if (!provider) throw notFound();
    return provider;
  }

  /** The provider's columns and links from the input; unknown catalogue slugs are a 422. */
  async function resolve(executor: Executor, input: Input) {
    const repository = createDirectoryEditorRepository(executor);
    const specs = [...new Set(input.specializations)];
    const conds = [...new Set(input.conditions)];
    const found = await repository.catalogueIds(specs, conds);
    const unknown = [
      ...specs.filter((slug) => !found.specializations.some((row) => row.slug === slug)),
      ...conds.filter((slug) => !found.conditions.some((row) => row.slug === slug)),
    ];
    if (unknown.length > 0) {
      throw new AppError(
        "CATALOGUE_ITEM_UNKNOWN",
        422,
        `Unknown specialization or condition: ${unknown.join(", ")}`,
      );
    }
    const bg = input.bio.bg.trim();
    return {
      columns: {
        slug: input.slug,
        firstName: input.first_name,
        lastName: input.last_name,
        credentials: input.credentials,
        bioEn: input.bio.en,
        translations: bg ? { bg: { bio: bg } } : {},
        languages: [...new Set(input.languages)],
        visitTypes: [...new Set(input.visit_types)] as VisitType[],
      },
      links: {
        specializationIds: found.specializations.map((row) => row.id),
        conditionIds: found.conditions.map((row) => row.id),
        licences: input.licences.map((licence) => ({ state: licence.state, expiresOn: licence.expires_on })),
      },
    };
  }

  const slugTaken = () => new AppError("PROVIDER_SLUG_TAKEN", 409, "Another provider has this slug");

  /** After the commit: every process reloads its copy (a failed announcement is logged by the caller). */
  async function changed<T>(result: T): Promise<T> {
    await deps.directoryChanged();
    return result;
  }

  async function setListed(actor: OperatorActor, id: string, listed: boolean) {
    const provider = await db.transaction(async (tx) => {
      const current = await one(tx, id, true);
      const repository = createDirectoryEditorRepository(tx);
      const unlistedAt = listed ? null : current.unlisted_at ? new Date(current.unlisted_at) : clock.now();
      await repository.setUnlisted(id, unlistedAt);
      await record(tx, actor, listed ? "provider.relist" : "provider.unlist", id, { slug: current.slug });
      return one(tx, id);
    });
    return changed(provider);
  }

  return {
    /** A page of every provider, listed or not, by part of a name or slug (reading is not logged). */
    async list(query: EditorProviderListQuery) {
      const { rows, total } = await createDirectoryEditorRepository(db).page(
        query.q || undefined,
        DIRECTORY_EDITOR_PAGE_SIZE,
        (query.page - 1) * DIRECTORY_EDITOR_PAGE_SIZE,
      );
      return { rows: await toEditorProviders(db, rows), total };
    },

    get: (id: string) => one(db, id),

    async create(actor: OperatorActor, input: Input): Promise<EditorProvider> {
      const provider = await db.transaction(async (tx) => {
        const repository = createDirectoryEditorRepository(tx);
        if (await repository.slugTaken(input.slug)) throw slugTaken();
        const { columns, links } = await resolve(tx, input);
        const id = await repository.insert({ ...columns });
        await repository.replaceLinks(id, links);
        await record(tx, actor, "provider.create", id, {
          slug: input.slug,
          licences: input.licences.map((l) => l.state).join(","),
        });
        return one(tx, id);
      });
      return changed(provider);
    },

    async update(actor: OperatorActor, id: string, input: Input): Promise<EditorProvider> {
      const provider = await db.transaction(async (tx) => {
        const before = await one(tx, id, true);
        const repository = createDirectoryEditorRepository(tx);
        if (await repository.slugTaken(input.slug, id)) throw slugTaken();
        const { columns, links } = await resolve(tx, input);
        await repository.update(id, columns);
        await repository.replaceLinks(id, links);
        await record(tx, actor, "provider.update", id, {
          slug: input.slug,
          changed: changedParts(before, input).join(","),
          licences: input.licences
            .map((l) => `${l.state}${l.expires_on ? `<=${l.expires_on}` : ""}`)
            .join(","),
        });
        return one(tx, id);
      });
      return changed(provider);
    },

    /**
     * A new photo: JPEG, PNG or WebP by its first bytes (415 PHOTO_NOT_AN_IMAGE otherwise), at most
     * PROVIDER_PHOTO_MAX_BYTES (413), and it must decode. It is stored re-encoded (a square JPEG,
     * nothing of the upload's metadata kept) under its content hash in the database, in the
     * transaction that points the provider at it, and served by the web's image service through
     * the API (ADR 070).
     */
    async photo(actor: OperatorActor, id: string, bytes: Buffer): Promise<EditorProvider> {
      if (bytes.length > PROVIDER_PHOTO_MAX_BYTES)
        throw new AppError("PAYLOAD_TOO_LARGE", 413, "A photo may be at most 2 MB");
      const kind = photoKindOf(bytes);
      if (!kind) throw new AppError("PHOTO_NOT_AN_IMAGE", 415, "A photo must be a JPEG, PNG or WebP image");
      await one(db, id);
      const { default: sharp } = await import("sharp");
      let encoded: Buffer;
      try {
        encoded = await sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
          .rotate()
          .resize(PHOTO_SIDE, PHOTO_SIDE, { fit: "cover" })
          .jpeg({ quality: 85 })
          .toBuffer();
      } catch {
        throw new AppError("PHOTO_NOT_AN_IMAGE", 415, "The photo could not be read as an image");
      }
      const provider = await db.transaction(async (tx) => {
        await one(tx, id, true);
        const name = await deps.photos.store(tx, encoded);
        await createDirectoryEditorRepository(tx).update(id, {
          photoPath: `${PROVIDER_PHOTO_URL_PREFIX}${name}`,
        });
        await record(tx, actor, "provider.photo", id, { kind, bytes: bytes.length, stored: name });
        return one(tx, id);
      });
      return changed(provider);
    },

    unlist: (actor: OperatorActor, id: string) => setListed(actor, id, false),
    relist: (actor: OperatorActor, id: string) => setListed(actor, id, true),
  };
}

export type DirectoryEditorService = ReturnType<typeof createDirectoryEditorService>;
