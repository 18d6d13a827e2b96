import { PERFORMANCE_THRESHOLDS } from "@ambercare/contracts/performance";
import {
  type Decision,
  decideViewMode,
  IdleSampler,
  type PerformanceSignals,
} from "#app/lib/performance-mode.ts";

/**
 * Gathers the performance helper's signals in the browser (ADR 011) and decides with
 * decideViewMode. Loaded on demand after the page has loaded (view-mode.ts), never on the server.
 *
 * - first contentful paint: PerformanceObserver "paint" (buffered);
 * - DOMContentLoaded: the navigation timing entry's domContentLoadedEventEnd;
 * - idle time: requestIdleCallback over 1000 ms windows, each window's idle share fed to IdleSampler
 *   (moving average of 10); the first window decides, later ones can only turn "full" into
 *   "reduced" while the average stays under the threshold;
 * - battery: navigator.getBattery() when the browser has it;
 * - video autoplay: a muted inline clip must start playing within 500 ms;
 * - prefers-reduced-motion and Save-Data.
 * The cheap signals come first: when they already say "reduced", nothing else is measured.
 */

const T = PERFORMANCE_THRESHOLDS;

type IdleDeadlineLike = { timeRemaining(): number };
type IdleWindow = Window & {
  requestIdleCallback?: (
    callback: (deadline: IdleDeadlineLike) => void,
    options?: { timeout: number },
  ) => number;
  cancelIdleCallback?: (handle: number) => void;
};
type BatteryNavigator = Navigator & {
  getBattery?: () => Promise<{ charging: boolean; level: number }>;
  connection?: { saveData?: boolean };
};

/** FCP in ms from the navigation start, or undefined when the browser does not report it in time. */
function firstContentfulPaint(waitMs = 1000): Promise<number | undefined> {
  return new Promise((resolve) => {
    if (typeof PerformanceObserver === "undefined") {
      resolve(undefined);
      return;
    }
    let observer: PerformanceObserver | undefined;
    const finish = (value: number | undefined) => {
      observer?.disconnect();
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), waitMs);
    try {
      observer = new PerformanceObserver((list) => {
        const entry = list.getEntriesByName("first-contentful-paint")[0];
        if (entry) finish(entry.startTime);
      });
      observer.observe({ type: "paint", buffered: true });
    } catch {
      finish(undefined);
    }
  });
}

function domContentLoaded(): number | undefined {
  const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return entry && entry.domContentLoadedEventEnd > 0 ? entry.domContentLoadedEventEnd : undefined;
}

/**
 * Idle milliseconds of one window: the sum of the idle periods requestIdleCallback reports inside it
 * (each callback asks for the next period, so the whole window is covered).
 */
export function measureIdle(win: IdleWindow, windowMs: number = T.idleWindowMs): Promise<number | undefined> {
  const request = win.requestIdleCallback;
  if (!request) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const start = performance.now();
    const end = start + windowMs;
    let idle = 0;
    let handle = 0;
    const tick = (deadline: IdleDeadlineLike) => {
      const now = performance.now();
      if (now >= end) {
        resolve(Math.min(idle, windowMs));
        return;
      }
      idle += Math.min(deadline.timeRemaining(), end - now);
      handle = request.call(win, tick, { timeout: Math.max(1, end - now) });
    };
    handle = request.call(win, tick, { timeout: windowMs });
    // However busy the thread, the window closes.
    setTimeout(() => {
      win.cancelIdleCallback?.(handle);
      resolve(Math.min(idle, windowMs));
    }, windowMs + 50);
  });
}

async function readBattery(nav: BatteryNavigator): Promise<PerformanceSignals["battery"]> {
  if (typeof nav.getBattery !== "function") return undefined;
  try {
    const battery = await Promise.race([
      nav.getBattery(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500)),
    ]);
    return battery ? { charging: battery.charging, level: battery.level } : undefined;
  } catch {
    return undefined;
  }
}

// A one-frame 16×16 clip in each container (WebM/VP8 469 bytes, MP4/H.264 1.4 KB), played from a
// blob: URL (the CSP allows media from 'self' and blob:) so the test costs no request.
const TEST_CLIPS: ReadonlyArray<{ type: string; base64: string }> = [
  {
    type: "video/webm",
    base64:
      "GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQJChYECGFOAZwEAAAAAAAGlEU2bdLpNu4tTq4QVSalmU6yBoU27i1OrhBZUrmtTrIHGTbuMU6uEElTDZ1OsggEMTbuMU6uEHFO7a1OsggGP7AEAAAAAAABZAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAVSalmoCrXsYMPQkBNgIRMYXZmV0GETGF2ZkSJiEBZAAAAAAAAFlSua8GuAQAAAAAAADjXgQFzxYgAAAAAAAAAAZyBACK1nIN1bmSIgQCGhVZfVlA4g4EBI+ODhAX14QDgibCBELqBEJqBAhJUw2fRc3POY8CLY8WIAAAAAAAAAAFnyJhFo4dFTkNPREVSRIeLTGF2YyBsaWJ2cHhnyKJFo4hEVVJBVElPTkSHlDAwOjAwOjAwLjEwMDAwMDAwMAAAH0O2dajngQCjo4EAAIAQAgCdASoQABAAAEcIhYWIhYSIAgIADA1gAP7/q1CAHFO7a5G7j7OBALeK94EB8YIBYvCBAw==",
  },
  {
    type: "video/mp4",
    base64:
      "AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAALqbW9vdgAAAGxtdmhkAAAAAAAAAAAAAAAAAAAD6AAAAGQAAQAAAQAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAAAjl0cmFrAAAAXHRraGQAAAADAAAAAAAAAAAAAAABAAAAAAAAAGQAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAABAAAAAQAAAAAAAkZWR0cwAAABxlbHN0AAAAAAAAAAEAAABkAAAAAAABAAAAAAGxbWRpYQAAACBtZGhkAAAAAAAAAAAAAAAAAAAoAAAABABVxAAAAAAALWhkbHIAAAAAAAAAAHZpZGUAAAAAAAAAAAAAAABWaWRlb0hhbmRsZXIAAAABXG1pbmYAAAAUdm1oZAAAAAEAAAAAAAAAAAAAACRkaW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAAAQAAARxzdGJsAAAAuHN0c2QAAAAAAAAAAQAAAKhhdmMxAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAABAAEABIAAAASAAAAAAAAAABDExhdmMgbGlieDI2NAAAAAAAAAAAAAAAAAAAAAAAAAAAGP//AAAALmF2Y0MBQsAK/+EAFmdCwArZHsBEAAADAAQAAAMAUDxImSABAAVoy4PLIAAAABBwYXNwAAAAAQAAAAEAAAAUYnRydAAAAAAAAMjwAADI8AAAABhzdHRzAAAAAAAAAAEAAAABAAAEAAAAABxzdHNjAAAAAAAAAAEAAAABAAAAAQAAAAEAAAAUc3RzegAAAAAAAAKDAAAAAQAAABRzdGNvAAAAAAAAAAEAAAMaAAAAPXVkdGEAAAA1bWV0YQAAAAAAAAAhaGRscgAAAAAAAAAAbWRpcmFwcGwAAAAAAAAAAAAAAAAIaWxzdAAAAAhmcmVlAAACi21kYXQAAAJxBgX//23cRem95tlIt5Ys2CDZI+7veDI2NCAtIGNvcmUgMTY0IHIzMDk1IGJhZWU0MDAgLSBILjI2NC9NUEVHLTQgQVZDIGNvZGVjIC0gQ29weWxlZnQgMjAwMy0yMDIyIC0gaHR0cDovL3d3dy52aWRlb2xhbi5vcmcveDI2NC5odG1sIC0gb3B0aW9uczogY2FiYWM9MCByZWY9MyBkZWJsb2NrPTE6MDowIGFuYWx5c2U9MHgxOjB4MTExIG1lPWhleCBzdWJtZT03IHBzeT0xIHBzeV9yZD0xLjAwOjAuMDAgbWl4ZWRfcmVmPTEgbWVfcmFuZ2U9MTYgY2hyb21hX21lPTEgdHJlbGxpcz0xIDh4OGRjdD0wIGNxbT0wIGRlYWR6b25lPTIxLDExIGZhc3RfcHNraXA9MSBjaHJvbWFfcXBfb2Zmc2V0PS0yIHRocmVhZHM9MSBsb29rYWhlYWRfdGhyZWFkcz0xIHNsaWNlZF90aHJlYWRzPTAgbnI9MCBkZWNpbWF0ZT0xIGludGVybGFjZWQ9MCBibHVyYXlfY29tcGF0PTAgY29uc3RyYWluZWRfaW50cmE9MCBiZnJhbWVzPTAgd2VpZ2h0cD0wIGtleWludD0yNTAga2V5aW50X21pbj0xMCBzY2VuZWN1dD00MCBpbnRyYV9yZWZyZXNoPTAgcmNfbG9va2FoZWFkPTQwIHJjPWNyZiBtYnRyZWU9MSBjcmY9MjMuMCBxY29tcD0wLjYwIHFwbWluPTAgcXBtYXg9NjkgcXBzdGVwPTQgaXBfcmF0aW89MS40MCBhcT0xOjEuMDAAgAAAAApliIQN8mKAALb+",
  },
];

function clipUrl(video: HTMLVideoElement): string | null {
  for (const clip of TEST_CLIPS) {
    if (video.canPlayType(clip.type) === "") continue;
    const bytes = Uint8Array.from(atob(clip.base64), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: clip.type }));
  }
  return null;
}

/** Whether a muted, inline clip starts playing within `timeoutMs` (autoplay allowed, decoder ready). */
export async function canAutoplayVideo(timeoutMs: number = T.videoAutoplayTimeoutMs): Promise<boolean> {
  const video = document.createElement("video");
  video.muted = true;
  video.defaultMuted = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  video.preload = "auto";
  const url = clipUrl(video);
  if (!url) return false;
  video.src = url;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      video.play().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    video.pause();
    video.removeAttribute("src");
    video.load();
    URL.revokeObjectURL(url);
  }
}

function cheapSignals(): PerformanceSignals {
  const nav = navigator as BatteryNavigator;
  return {
    prefersReducedMotion: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false,
    saveData: nav.connection?.saveData === true,
    domContentLoadedMs: domContentLoaded(),
  };
}

/**
 * Decides the view for this page load. `onDecision` gets the first decision, then at most one more
 * call if later idle windows turn "full" into "reduced". Returns a function that stops the sampling.
 */
export function detectViewMode(onDecision: (decision: Decision) => void): () => void {
  let stopped = false;
  const win = window as IdleWindow;
  void (async () => {
    const signals: PerformanceSignals = { ...cheapSignals() };
    signals.firstContentfulPaintMs = await firstContentfulPaint();
    let decision = decideViewMode(signals);
    if (decision.mode === "reduced" || stopped) {
      if (!stopped) onDecision(decision);
      return;
    }
    const sampler = new IdleSampler();
    const [idleMs, battery, canAutoplay] = await Promise.all([
      measureIdle(win),
      readBattery(navigator as BatteryNavigator),
      canAutoplayVideo(),
    ]);
    if (idleMs !== undefined) sampler.add(idleMs);
    signals.idleRatio = sampler.average();
    signals.battery = battery;
    signals.canAutoplayVideo = canAutoplay;
    decision = decideViewMode(signals);
    if (stopped) return;
    onDecision(decision);
    // Keep sampling while the page is visible, until the moving average is full or says "reduced".
    while (!stopped && decision.mode === "full" && sampler.count < T.movingAverageSamples) {
      if (document.visibilityState !== "visible") {
        await new Promise<void>((resolve) =>
          document.addEventListener("visibilitychange", () => resolve(), { once: true }),
        );
        continue;
      }
      const more = await measureIdle(win);
      if (more === undefined) break;
      sampler.add(more);
      decision = decideViewMode({ ...signals, idleRatio: sampler.average() });
      if (decision.mode === "reduced" && !stopped) onDecision(decision);
    }
  })();
  return () => {
    stopped = true;
  };
}
