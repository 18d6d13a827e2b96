import { useCallback, useState } from "react";

/**
 * How the waiting room gets the patient's attention when a clinician accepts: a short tone made with
 * Web Audio (no file to download) and, only when the patient turned them on with the page's button,
 * a browser notification. The permission is asked from that button, never on load: browsers
 * penalise pages that ask unprompted, and a patient should know why they are asked.
 */

/** Two soft rising notes, a quarter of a second each. Silently does nothing where audio is blocked. */
export function playAcceptedTone(): void {
  playTones([660, 880], 0.25, 0.22);
}

/**
 * Soft sine notes one after the other, `step` seconds apart, each `length` seconds long (Web Audio:
 * no file to fetch). Does nothing where audio is blocked or there is no audio device.
 */
export function playTones(frequencies: readonly number[], step: number, length: number): void {
  try {
    const AudioContextClass =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioContextClass) return;
    const context = new AudioContextClass();
    const gain = context.createGain();
    gain.gain.value = 0.08;
    gain.connect(context.destination);
    frequencies.forEach((frequency, index) => {
      const oscillator = context.createOscillator();
      oscillator.frequency.value = frequency;
      oscillator.connect(gain);
      const at = context.currentTime + index * step;
      oscillator.start(at);
      oscillator.stop(at + length);
    });
    setTimeout(() => void context.close(), 1000);
  } catch {
    // Autoplay rules or no audio device: the page and its live region still tell.
  }
}

export type NotificationChoice = "unsupported" | "default" | "granted" | "denied";

const currentChoice = (): NotificationChoice =>
  typeof window === "undefined" || !("Notification" in window)
    ? "unsupported"
    : (Notification.permission as NotificationChoice);

/** The patient's notification choice and the button's action that asks for it. */
export function useNotificationChoice(): {
  choice: NotificationChoice;
  ask: () => Promise<void>;
} {
  const [choice, setChoice] = useState<NotificationChoice>(currentChoice);
  const ask = useCallback(async () => {
    if (!("Notification" in window)) return;
    setChoice((await Notification.requestPermission()) as NotificationChoice);
  }, []);
  return { choice, ask };
}

/** Shows a notification if the patient allowed them; the tab's own page says the same. */
export function notify(title: string, body: string): void {
  if (currentChoice() !== "granted") return;
  try {
    new Notification(title, { body, tag: "visit-status" });
  } catch {
    // Some mobile browsers only notify from a service worker: the page itself still shows it.
  }
}
