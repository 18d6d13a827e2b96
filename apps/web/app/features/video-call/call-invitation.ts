import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";

/**
 * What the patient's waiting room says about the call, apart from React so the rule is tested.
 * The ring (`visit.call.ring`) reaches only a page whose live socket is open when the clinician
 * starts; a page that opens or connects a moment later learns of the call from the visit's status
 * (in progress). Either way the clinician is waiting: the patient is asked to join, and "rejoin" is
 * said only to a tab that has already joined this call (a reload mid-call).
 */
export type CallInvitation = "none" | "calling" | "underWay";

export function callInvitation(options: {
  status: ConsultationStatus;
  ringing: boolean;
  joinedBefore: boolean;
}): CallInvitation {
  if (options.ringing) return "calling";
  if (options.status !== "in_progress") return "none";
  return options.joinedBefore ? "underWay" : "calling";
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;
const joinedKey = (consultationId: string) => `ambercare.call-joined.${consultationId}`;

const tabStorage = (): Storage | null => {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
};

/** Whether this tab joined the visit's call before (kept for the tab's life: a reload remembers). */
export function joinedBefore(consultationId: string, storage: Storage | null = tabStorage()): boolean {
  try {
    return storage?.getItem(joinedKey(consultationId)) === "true";
  } catch {
    return false;
  }
}

export function rememberJoined(consultationId: string, storage: Storage | null = tabStorage()): void {
  try {
    storage?.setItem(joinedKey(consultationId), "true");
  } catch {
    // Refused storage: a reload will say "join" instead of "rejoin", nothing worse.
  }
}
