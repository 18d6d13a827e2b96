/**
 * The camera, microphone and speaker a person chose in the device check, remembered in this browser
 * (localStorage) so the call, a reload and the next visit open the same devices. Device ids are
 * per-origin and mean nothing elsewhere; nothing here is sent to the server.
 */

export type DevicePreferences = {
  audioInput?: string;
  videoInput?: string;
  /** Where the other side is heard; only browsers with `HTMLMediaElement.setSinkId` can choose. */
  audioOutput?: string;
};

const STORAGE_KEY = "ambercare.call-devices";
const KINDS = ["audioInput", "videoInput", "audioOutput"] as const;

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

const browserStorage = (): Storage | null => {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    // Storage refused (private mode, a sandboxed frame): the defaults are used.
    return null;
  }
};

export function readDevicePreferences(storage: Storage | null = browserStorage()): DevicePreferences {
  const raw = storage?.getItem(STORAGE_KEY);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null) return {};
    const record = parsed as Record<string, unknown>;
    const preferences: DevicePreferences = {};
    for (const kind of KINDS) {
      const value = record[kind];
      if (typeof value === "string" && value !== "") preferences[kind] = value;
    }
    return preferences;
  } catch {
    return {};
  }
}

/** Merges the change into what was chosen before; an empty id forgets that choice. */
export function saveDevicePreferences(
  change: DevicePreferences,
  storage: Storage | null = browserStorage(),
): DevicePreferences {
  const next = { ...readDevicePreferences(storage), ...change };
  for (const kind of KINDS) if (!next[kind]) delete next[kind];
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Full or refused storage: the choice holds for this page only.
  }
  return next;
}

/**
 * getUserMedia constraints for the chosen devices. `ideal`, not `exact`: a device unplugged since
 * falls back to another instead of failing the call.
 */
export function mediaConstraints(preferences: DevicePreferences): MediaStreamConstraints {
  return {
    audio: preferences.audioInput ? { deviceId: { ideal: preferences.audioInput } } : true,
    video: preferences.videoInput
      ? { deviceId: { ideal: preferences.videoInput }, width: { ideal: 1280 }, height: { ideal: 720 } }
      : { width: { ideal: 1280 }, height: { ideal: 720 } },
  };
}

/** Whether this browser lets a page send sound to a chosen output (Chrome, Edge, Firefox 116+). */
export const canChooseSpeaker = () =>
  typeof HTMLMediaElement !== "undefined" && "setSinkId" in HTMLMediaElement.prototype;

/**
 * Plays the element's sound through the chosen speaker where the browser can choose one. A speaker
 * unplugged since, or a choice refused, leaves the system's output: the sound is never lost for it.
 */
export async function sendToSpeaker(element: HTMLMediaElement, speaker: string | undefined): Promise<void> {
  if (!speaker || !canChooseSpeaker()) return;
  await (element as HTMLMediaElement & { setSinkId(id: string): Promise<void> })
    .setSinkId(speaker)
    .catch(() => {});
}
