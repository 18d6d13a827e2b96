import type { FastifyBaseLogger } from "fastify";
import type { ProviderDirectory } from "#api/modules/directory/provider-directory.ts";

/** The relayed topic that tells every API process its copy of the directory is out of date. */
export const DIRECTORY_CHANGED_TOPIC = "directory.changed";

/**
 * The part of the live events' signal (live-signal.ts, ADR 033) this uses: on PostgreSQL a relay is
 * a NOTIFY every API process LISTENs to, on PGlite an in-process call.
 */
type Relay = { userIds: string[]; topic: string; payload: Record<string, unknown> };
export type DirectorySignal = {
  relay(relay: Relay): Promise<void>;
  subscribe(onNote: () => void, onResync: () => void, onRelay: (relay: Relay) => void): void;
};

/**
 * Keeps every process's in-memory directory (ADR 019) in step with an operator's edits (ADR 065):
 * `announce` after the change committed drops this process's copy at once and relays
 * DIRECTORY_CHANGED_TOPIC (to no page: `userIds` is empty) so every other process drops its own.
 * When the listening connection was lost (notifications may be gone) the copy is dropped too.
 */
export function directoryChangesOver(
  signal: DirectorySignal,
  directory: Pick<ProviderDirectory, "invalidate">,
  log: Pick<FastifyBaseLogger, "warn">,
) {
  signal.subscribe(
    () => undefined,
    () => directory.invalidate(),
    (relay) => {
      if (relay.topic === DIRECTORY_CHANGED_TOPIC) directory.invalidate();
    },
  );
  return {
    async announce(): Promise<void> {
      directory.invalidate();
      try {
        await signal.relay({ userIds: [], topic: DIRECTORY_CHANGED_TOPIC, payload: {} });
      } catch (error) {
        // The others still notice within seconds: the fingerprint counts unlistings and licences.
        log.warn({ err: error }, "the directory change could not be announced to the other processes");
      }
    },
  };
}
