import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createI18n, I18nProvider, type Locale, lookup } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import {
  type BrowserFamily,
  detectBrowser,
  explainMediaProblem,
  MEDIA_PROBLEM_KINDS,
  MediaProblemError,
  mediaAccessProblem,
  mediaProblemOf,
} from "./media-problem.ts";
import { MediaProblem } from "./media-problem.tsx";

const AGENTS: Record<string, { ua: string; touch?: number; family: BrowserFamily }> = {
  "Chrome on Windows": {
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    family: "chrome",
  },
  "Chromium on Linux (headless tests)": {
    ua: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
    family: "chrome",
  },
  "Edge on Windows": {
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
    family: "chrome",
  },
  "Chrome on Android": {
    ua: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
    family: "chrome",
  },
  "Firefox on a Mac": {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0",
    family: "firefox",
  },
  "Firefox on Android": {
    ua: "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
    family: "firefox",
  },
  "Safari on iPhone": {
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    touch: 5,
    family: "safariIos",
  },
  "Safari on an iPad (which says Macintosh)": {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    touch: 5,
    family: "safariIos",
  },
  "Chrome on iPhone": {
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
    touch: 5,
    family: "iosApp",
  },
  "Firefox on iPhone": {
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
    touch: 5,
    family: "iosApp",
  },
  "Safari on a Mac": {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    family: "safari",
  },
  "an unknown agent": { ua: "curl/8.5.0", family: "other" },
  "no agent": { ua: "", family: "other" },
};

describe("detectBrowser", () => {
  for (const [name, { ua, touch, family }] of Object.entries(AGENTS)) {
    it(`knows ${name} as ${family}`, () => {
      expect(detectBrowser(ua, touch ?? 0)).toBe(family);
    });
  }
});

const domError = (name: string) => Object.assign(new Error("raw browser text"), { name });

describe("mediaProblemOf", () => {
  it.each([
    ["NotAllowedError", "denied"],
    ["PermissionDeniedError", "denied"],
    ["NotFoundError", "notFound"],
    ["DevicesNotFoundError", "notFound"],
    ["NotReadableError", "inUse"],
    ["TrackStartError", "inUse"],
    ["AbortError", "inUse"],
    ["OverconstrainedError", "overconstrained"],
    ["SecurityError", "blocked"],
    ["TypeError", "unsupported"],
    ["SomethingNewError", "unknown"],
  ] as const)("reads %s as %s", (name, kind) => {
    expect(mediaProblemOf(domError(name))).toBe(kind);
  });

  it("keeps the kind of a MediaProblemError and accepts a kind as it is", () => {
    expect(mediaProblemOf(new MediaProblemError("insecure"))).toBe("insecure");
    expect(mediaProblemOf("notFound")).toBe("notFound");
    expect(mediaProblemOf("nonsense")).toBe("unknown");
    expect(mediaProblemOf(null)).toBe("unknown");
  });
});

describe("mediaAccessProblem", () => {
  const mediaDevices = { getUserMedia: async () => ({}) };
  it("says an insecure page, a browser without mediaDevices, and the server cannot ask", () => {
    expect(mediaAccessProblem({ isSecureContext: false, mediaDevices: undefined })).toBe("insecure");
    expect(mediaAccessProblem({ isSecureContext: true, mediaDevices: undefined })).toBe("unsupported");
    expect(mediaAccessProblem({ isSecureContext: true, mediaDevices: {} })).toBe("unsupported");
    expect(mediaAccessProblem(undefined)).toBe("unsupported");
    expect(mediaAccessProblem({ isSecureContext: true, mediaDevices })).toBeNull();
  });
});

const BROWSERS: BrowserFamily[] = ["chrome", "firefox", "safariIos", "iosApp", "safari", "other"];

describe("explainMediaProblem", () => {
  it("tells each browser where its own camera permission is", () => {
    const text = (browser: BrowserFamily) =>
      explainMediaProblem("denied", browser)
        .steps.map((key) => lookup(en, key))
        .join(" ");
    expect(text("chrome")).toContain("camera icon");
    expect(text("chrome")).toContain("address bar");
    expect(text("safariIos")).toContain("Safari › Camera");
    expect(text("safariIos")).toContain("Settings");
    expect(text("firefox")).toContain("permissions icon");
    expect(text("firefox")).toContain("left of the address");
    expect(text("iosApp")).toContain("Settings");
    expect(text("safari")).toContain("Settings for This Website");
    expect(new Set(BROWSERS.map(text)).size).toBe(BROWSERS.length);
  });

  it("gives iPhones and computers their own steps where they differ", () => {
    expect(explainMediaProblem("notFound", "safariIos").steps).toEqual(["mediaProblem.notFound.ios"]);
    expect(explainMediaProblem("notFound", "chrome").steps).toEqual(["mediaProblem.notFound.computer"]);
    expect(explainMediaProblem("inUse", "iosApp").steps[0]).toBe("mediaProblem.inUse.ios");
    expect(explainMediaProblem("inUse", "firefox").steps[0]).toBe("mediaProblem.inUse.computer");
    expect(explainMediaProblem("unsupported", "safariIos").steps).toEqual(["mediaProblem.unsupported.ios"]);
    expect(explainMediaProblem("insecure", "chrome").title).toBe("mediaProblem.insecure.title");
  });

  it("has a title and at least one step in both languages for every problem in every browser", () => {
    for (const kind of MEDIA_PROBLEM_KINDS) {
      for (const browser of BROWSERS) {
        const { title, steps } = explainMediaProblem(kind, browser);
        expect(title.startsWith(`mediaProblem.${kind}.`)).toBe(true);
        expect(steps.length).toBeGreaterThan(0);
        for (const key of [title, ...steps]) {
          expect(lookup(en, key), `${key} (en)`).toBeTruthy();
          expect(lookup(bg, key), `${key} (bg)`).toBeTruthy();
        }
      }
    }
  });
});

describe("<MediaProblem>", () => {
  const render = (problem: unknown, browser: BrowserFamily, locale: Locale = "en") =>
    renderToString(
      <I18nProvider i18n={createI18n(locale, locale === "en" ? en : bg)}>
        <MediaProblem problem={problem} browser={browser} onRetry={() => {}} />
      </I18nProvider>,
    );

  it("explains a refusal in Chrome as an alert with Try again, never the browser's own text", () => {
    const html = render(domError("NotAllowedError"), "chrome");
    expect(html).toContain('role="alert"');
    expect(html).toContain("camera icon at the right end of the address bar");
    expect(html).toContain(">Try again</button>");
    expect(html).not.toContain("raw browser text");
    expect(html).not.toContain("NotAllowedError");
  });

  it("speaks Bulgarian, with Safari's settings on an iPhone", () => {
    const html = render(domError("NotAllowedError"), "safariIos", "bg");
    expect(html).toContain("Safari › Камера");
    expect(html).toContain(">Опитайте отново</button>");
  });
});
