import { useCallback, useEffect, useState } from "react";
import { playTones } from "#app/features/consultations/visit-alerts.ts";

/**
 * The sound of a new request in the console: a short tone made with Web Audio (no file to fetch),
 * played only when the clinician has not muted it (remembered in this browser) and has interacted
 * with the page: browsers refuse sound before that, and a page that beeps on its own is a bad page.
 */

export const SOUND_MUTED_KEY = "ambercare.console.sound-muted";

const storage = (): Storage | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

let interacted = false;

/** Whether the page has had a click, a tap or a key press (the browser's user activation). */
export function hasInteracted(): boolean {
  if (interacted) return true;
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } })
    .userActivation;
  return activation?.hasBeenActive ?? false;
}

/** Notes the first interaction for browsers without `navigator.userActivation`. */
export function useInteractionWatch(): void {
  useEffect(() => {
    if (interacted) return;
    const mark = () => {
      interacted = true;
      stop();
    };
    const stop = () => {
      window.removeEventListener("pointerdown", mark, true);
      window.removeEventListener("keydown", mark, true);
    };
    window.addEventListener("pointerdown", mark, true);
    window.addEventListener("keydown", mark, true);
    return stop;
  }, []);
}

/** Three quick notes, high-low-high, a quarter of a second in all: unlike the patient's tone. */
export function playArrivalTone(): void {
  playTones([988, 784, 988], 0.09, 0.08);
}

/** The clinician's sound choice, read after hydration (the server cannot know it) and remembered. */
export function useSoundChoice(): { muted: boolean; setMuted: (muted: boolean) => void } {
  const [muted, setMutedState] = useState(false);
  useEffect(() => {
    setMutedState(storage()?.getItem(SOUND_MUTED_KEY) === "1");
  }, []);
  const setMuted = useCallback((value: boolean) => {
    setMutedState(value);
    try {
      if (value) storage()?.setItem(SOUND_MUTED_KEY, "1");
      else storage()?.removeItem(SOUND_MUTED_KEY);
    } catch {
      // Storage full or refused: the choice holds for this page only.
    }
  }, []);
  return { muted, setMuted };
}
