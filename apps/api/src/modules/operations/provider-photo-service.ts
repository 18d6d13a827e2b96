import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { PROVIDER_PHOTO_MAX_BYTES } from "@ambercare/contracts/directory-editor";
import type { Database, Executor } from "@ambercare/db/client";
import { createProviderPhotoRepository } from "#api/modules/operations/provider-photo-repository.ts";

/** Where an uploaded photo is served from: the web's image service reads `images/provider-photos/`. */
export const PROVIDER_PHOTO_URL_PREFIX = "/images/provider-photos/";
/** What every stored photo is: the editor re-encodes each upload as a JPEG. */
export const PROVIDER_PHOTO_CONTENT_TYPE = "image/jpeg";
/** A photo's name: the first 32 hex digits of its bytes' SHA-256, then `.jpg`. */
const PHOTO_NAME = /^([0-9a-f]{32})\.jpg$/;
/** Hashes asked for at once when the start-up import looks for the files not yet stored. */
const IMPORT_BATCH = 500;

/** The image kind by its first bytes, never by what the client says it is. */
export function photoKindOf(bytes: Buffer): "jpeg" | "png" | "webp" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return "png";
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "webp";
  return null;
}

/** The content hash a photo is stored and named by. */
export const photoHashOf = (bytes: Buffer): string =>
  createHash("sha256").update(bytes).digest("hex").slice(0, 32);

export type ProviderPhoto = { contentType: string; bytes: Buffer };

export type ProviderPhotoDeps = {
  db: Database;
  /**
   * `$DATA_DIR/provider-photos`, where earlier versions wrote the photos: read only, to bring a photo
   * not yet in the database into it (ADR 070).
   */
  legacyDir: string;
};

/**
 * The providers' uploaded photos, in the database that every host shares (ADR 070), by content hash:
 * the directory editor stores each one in the transaction that points the provider at it, and the
 * web's image service reads them through the API (`GET /api/provider-photos/:name`). A photo an
 * earlier version left in `$DATA_DIR/provider-photos` is copied in when the API starts and, should it
 * be asked for before, when it is first asked for.
 */
export function createProviderPhotoService({ db, legacyDir }: ProviderPhotoDeps) {
  /** A photo an earlier version wrote: only a JPEG whose name is its own hash, within the size limit. */
  async function fromDisk(hash: string): Promise<Buffer | null> {
    const file = join(legacyDir, `${hash}.jpg`);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.size === 0 || info.size > PROVIDER_PHOTO_MAX_BYTES) return null;
    const bytes = await readFile(file).catch(() => null);
    if (!bytes || photoKindOf(bytes) !== "jpeg" || photoHashOf(bytes) !== hash) return null;
    return bytes;
  }

  const copyIn = (hash: string, bytes: Buffer) =>
    createProviderPhotoRepository(db).insert({ hash, contentType: PROVIDER_PHOTO_CONTENT_TYPE, bytes });

  return {
    /**
     * Stores checked, re-encoded JPEG bytes with `executor` (the caller's transaction) and answers
     * their name, `<hash>.jpg`. The same bytes stored twice are one row.
     */
    async store(executor: Executor, bytes: Buffer): Promise<string> {
      const hash = photoHashOf(bytes);
      await createProviderPhotoRepository(executor).insert({
        hash,
        contentType: PROVIDER_PHOTO_CONTENT_TYPE,
        bytes,
      });
      return `${hash}.jpg`;
    },

    /** The photo named `<hash>.jpg`, or null: from the database, else from an earlier version's file. */
    async get(name: string): Promise<ProviderPhoto | null> {
      const hash = PHOTO_NAME.exec(name)?.[1];
      if (!hash) return null;
      const stored = await createProviderPhotoRepository(db).byHash(hash);
      if (stored) return stored;
      const bytes = await fromDisk(hash);
      if (!bytes) return null;
      await copyIn(hash, bytes);
      return { contentType: PROVIDER_PHOTO_CONTENT_TYPE, bytes };
    },

    /**
     * Copies every photo of `$DATA_DIR/provider-photos` not yet in the database into it (run when the
     * API starts; a no-op once done). Answers how many it copied and the names it left out (not a
     * photo this API wrote: another name, not a JPEG, bytes that are not their name's).
     */
    async importFromDisk(): Promise<{ imported: number; refused: string[] }> {
      const names = await readdir(legacyDir).catch(() => [] as string[]);
      const refused = names.filter((name) => !name.startsWith(".") && !PHOTO_NAME.test(name));
      const hashes = names.flatMap((name) => PHOTO_NAME.exec(name)?.[1] ?? []);
      let imported = 0;
      for (let start = 0; start < hashes.length; start += IMPORT_BATCH) {
        const batch = hashes.slice(start, start + IMPORT_BATCH);
        const stored = await createProviderPhotoRepository(db).stored(batch);
        for (const hash of batch) {
          if (stored.has(hash)) continue;
          const bytes = await fromDisk(hash);
          if (!bytes) {
            refused.push(`${hash}.jpg`);
            continue;
          }
          await copyIn(hash, bytes);
          imported++;
        }
      }
      return { imported, refused };
    },
  };
}

export type ProviderPhotoService = ReturnType<typeof createProviderPhotoService>;
