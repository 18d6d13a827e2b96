import { VISIT_MESSAGE_TOPIC } from "@ambercare/contracts/live";
import { VISIT_STATUS_TOPIC } from "@ambercare/contracts/waiting-room";
import type { LiveEvent } from "#app/features/live/use-live-events.ts";

/**
 * What the visit workspace reads itself again for: the visit's status, and a chat message that
 * brought files (they are the patient's documents too, listed under Documents). Other messages are
 * the chat's own business: it reads them itself, and a workspace read is in the patient's log.
 */
export const WORKSPACE_TOPICS = Object.freeze([VISIT_STATUS_TOPIC, VISIT_MESSAGE_TOPIC]);

export function concernsWorkspace(event: Pick<LiveEvent, "topic" | "payload">, visitId: string): boolean {
  const payload = event.payload as { consultation_id?: unknown; attachments?: unknown };
  if (payload.consultation_id !== visitId) return false;
  return event.topic !== VISIT_MESSAGE_TOPIC || Number(payload.attachments) > 0;
}
