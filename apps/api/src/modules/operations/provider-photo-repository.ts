import type { Executor } from "@ambercare/db/client";
import { providerPhotos } from "@ambercare/db/schema";
import { eq, inArray } from "drizzle-orm";

/** The providers' photos by content hash (ADR 070): rows are written once and never changed. */
export function createProviderPhotoRepository(executor: Executor) {
  return {
    async byHash(hash: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
      const [row] = await executor
        .select({ contentType: providerPhotos.contentType, bytes: providerPhotos.bytes })
        .from(providerPhotos)
        .where(eq(providerPhotos.hash, hash));
      return row;
    },

    /** Which of `hashes` are stored. */
    async stored(hashes: string[]): Promise<Set<string>> {
      if (hashes.length === 0) return new Set();
      const rows = await executor
        .select({ hash: providerPhotos.hash })
        .from(providerPhotos)
        .where(inArray(providerPhotos.hash, hashes));
      return new Set(rows.map((row) => row.hash));
    },

    /** Stores a photo; the same bytes stored again (by another upload or another host) are kept once. */
    async insert(photo: { hash: string; contentType: string; bytes: Buffer }): Promise<void> {
      await executor.insert(providerPhotos).values(photo).onConflictDoNothing();
    },
  };
}
