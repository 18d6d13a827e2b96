import type { TranslationKey } from "#app/lib/i18n.tsx";

/**
 * Why the camera or microphone could not be opened, in words a patient can act on: what went wrong
 * and where to click (or tap) in the browser they use. A raw DOMException never reaches the page.
 */

/** The browsers whose permission settings differ in where they are found. */
export type BrowserFamily =
  /** Chrome, Edge, Opera, Brave, Samsung Internet…: the camera icon in the address bar. */
  | "chrome"
  /** Firefox on a computer or Android: the permissions icon left of the address. */
  | "firefox"
  /** Safari on iPhone and iPad: Settings › Safari › Camera and Microphone. */
  | "safariIos"
  /** Chrome, Firefox or Edge on iPhone and iPad: the app's own entry in Settings. */
  | "iosApp"
  /** Safari on a Mac: Safari › Settings › Websites. */
  | "safari"
  | "other";

export type MediaProblemKind =
  /** The person or the browser said no (NotAllowedError). */
  | "denied"
  /** No camera or microphone at all (NotFoundError). */
  | "notFound"
  /** Another app or tab holds the device, or the system refused it (NotReadableError). */
  | "inUse"
  /** The chosen device is gone or cannot give what was asked (OverconstrainedError). */
  | "overconstrained"
  /** A policy of the browser, the system or an administrator blocks the camera here (SecurityError). */
  | "blocked"
  /** The page is not on https (or localhost): browsers give no camera to such pages. */
  | "insecure"
  /** The browser has no camera access for web pages at all. */
  | "unsupported"
  | "unknown";

/**
 * The browser family from the user agent. iPadOS 13+ presents itself as a Mac: `maxTouchPoints`
 * (from `navigator`) tells a touch iPad from a Mac, whose settings differ.
 */
export function detectBrowser(userAgent: string, maxTouchPoints = 0): BrowserFamily {
  const ua = userAgent;
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && maxTouchPoints > 1);
  if (ios) {
    // Every iOS browser is WebKit; the others name themselves (CriOS, FxiOS, EdgiOS, OPiOS…).
    return /CriOS|FxiOS|EdgiOS|OPiOS|YaBrowser|GSA\//.test(ua) ? "iosApp" : "safariIos";
  }
  if (/Firefox\/|FxiOS/.test(ua) && !/Seamonkey/i.test(ua)) return "firefox";
  if (/Chrome\/|Chromium\/|CrMo\/|Edg\//.test(ua)) return "chrome";
  if (/Safari\//.test(ua) && /Version\//.test(ua) && /Macintosh/.test(ua)) return "safari";
  return "other";
}

/** The browser family of the page's own browser; "other" on the server. */
export function currentBrowser(): BrowserFamily {
  if (typeof navigator === "undefined") return "other";
  return detectBrowser(navigator.userAgent ?? "", navigator.maxTouchPoints ?? 0);
}

/** What getUserMedia and enumerateDevices reject with, by the error's name (old names included). */
const KIND_BY_ERROR_NAME: Record<string, MediaProblemKind> = {
  NotAllowedError: "denied",
  PermissionDeniedError: "denied",
  NotFoundError: "notFound",
  DevicesNotFoundError: "notFound",
  NotReadableError: "inUse",
  TrackStartError: "inUse",
  AbortError: "inUse",
  OverconstrainedError: "overconstrained",
  ConstraintNotSatisfiedError: "overconstrained",
  SecurityError: "blocked",
  TypeError: "unsupported",
};

/** The problem a failed getUserMedia or enumerateDevices call names. */
export function mediaProblemOf(error: unknown): MediaProblemKind {
  if (error instanceof MediaProblemError) return error.kind;
  if (typeof error === "string" && isKind(error)) return error;
  const name =
    typeof error === "object" && error !== null && "name" in error
      ? String((error as { name: unknown }).name)
      : "";
  return KIND_BY_ERROR_NAME[name] ?? "unknown";
}

/** Every problem the explanations cover. */
export const MEDIA_PROBLEM_KINDS: readonly MediaProblemKind[] = [
  "denied",
  "notFound",
  "inUse",
  "overconstrained",
  "blocked",
  "insecure",
  "unsupported",
  "unknown",
];
const isKind = (value: string): value is MediaProblemKind =>
  (MEDIA_PROBLEM_KINDS as readonly string[]).includes(value);

/**
 * The problem before any call is made: a page not on https gets no `navigator.mediaDevices`, and
 * an old browser has none either. Null when the camera may be asked for.
 */
export function mediaAccessProblem(
  environment: { isSecureContext?: boolean; mediaDevices?: unknown } | undefined = typeof window ===
  "undefined"
    ? undefined
    : { isSecureContext: window.isSecureContext, mediaDevices: navigator.mediaDevices },
): MediaProblemKind | null {
  if (!environment) return "unsupported";
  if (environment.isSecureContext === false) return "insecure";
  const devices = environment.mediaDevices as { getUserMedia?: unknown } | undefined;
  if (!devices || typeof devices.getUserMedia !== "function") return "unsupported";
  return null;
}

/**
 * Asks for the camera and microphone (or the constraints given), turning every failure into a
 * MediaProblemError whose `kind` the explanation reads.
 */
export async function openMedia(constraints: MediaStreamConstraints): Promise<MediaStream> {
  const before = mediaAccessProblem();
  if (before) throw new MediaProblemError(before);
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch (error) {
    throw new MediaProblemError(mediaProblemOf(error), error);
  }
}

export class MediaProblemError extends Error {
  constructor(
    readonly kind: MediaProblemKind,
    readonly original?: unknown,
  ) {
    super(`Camera or microphone unavailable: ${kind}`);
    this.name = "MediaProblemError";
  }
}

export type MediaProblemExplanation = {
  title: TranslationKey;
  /** What to do, in order, for this browser. */
  steps: TranslationKey[];
};

const DENIED_STEPS: Record<BrowserFamily, TranslationKey[]> = {
  chrome: ["mediaProblem.denied.chrome.step1", "mediaProblem.denied.chrome.step2"],
  firefox: ["mediaProblem.denied.firefox.step1", "mediaProblem.denied.firefox.step2"],
  safariIos: [
    "mediaProblem.denied.safariIos.step1",
    "mediaProblem.denied.safariIos.step2",
    "mediaProblem.denied.safariIos.step3",
  ],
  iosApp: ["mediaProblem.denied.iosApp.step1", "mediaProblem.denied.iosApp.step2"],
  safari: ["mediaProblem.denied.safari.step1", "mediaProblem.denied.safari.step2"],
  other: ["mediaProblem.denied.other.step1", "mediaProblem.denied.other.step2"],
};

const IOS: readonly BrowserFamily[] = ["safariIos", "iosApp"];

/** The translation keys that explain a problem in one browser: a title and the steps to take. */
export function explainMediaProblem(kind: MediaProblemKind, browser: BrowserFamily): MediaProblemExplanation {
  const ios = IOS.includes(browser);
  switch (kind) {
    case "denied":
      return { title: "mediaProblem.denied.title", steps: DENIED_STEPS[browser] };
    case "notFound":
      return {
        title: "mediaProblem.notFound.title",
        steps: [ios ? "mediaProblem.notFound.ios" : "mediaProblem.notFound.computer"],
      };
    case "inUse":
      return {
        title: "mediaProblem.inUse.title",
        steps: [ios ? "mediaProblem.inUse.ios" : "mediaProblem.inUse.computer", "mediaProblem.inUse.then"],
      };
    case "overconstrained":
      return { title: "mediaProblem.overconstrained.title", steps: ["mediaProblem.overconstrained.step"] };
    case "blocked":
      return {
        title: "mediaProblem.blocked.title",
        steps: [ios ? "mediaProblem.blocked.ios" : "mediaProblem.blocked.computer"],
      };
    case "insecure":
      return { title: "mediaProblem.insecure.title", steps: ["mediaProblem.insecure.step"] };
    case "unsupported":
      return {
        title: "mediaProblem.unsupported.title",
        steps: [ios ? "mediaProblem.unsupported.ios" : "mediaProblem.unsupported.computer"],
      };
    default:
      return { title: "mediaProblem.unknown.title", steps: ["mediaProblem.unknown.step"] };
  }
}
