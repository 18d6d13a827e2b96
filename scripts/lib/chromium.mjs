// Finds the Chromium the e2e suite and Lighthouse drive: CHROME_PATH, then Debian's /usr/bin/chromium.
// Where none is installed and we run as root on Debian, installs Debian's `chromium` package, saying so.
// The journeys prefer Chromium's headless shell where it is installed (journeyBrowserPath, ADR 073).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export const CHROMIUM_FLAGS = Object.freeze([
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);

export function findChromium() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
  }
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

const HEADLESS_SHELL_CANDIDATES = ["/usr/bin/chromium-headless-shell"];

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`: the same engine and version as its
 * `chromium`, without the browser's own UI layer): CHROME_HEADLESS_SHELL_PATH, then Debian's, or null.
 */
export function findHeadlessShell() {
  if (process.env.CHROME_HEADLESS_SHELL_PATH) {
    if (existsSync(process.env.CHROME_HEADLESS_SHELL_PATH)) return process.env.CHROME_HEADLESS_SHELL_PATH;
    throw new Error(
      `CHROME_HEADLESS_SHELL_PATH is set to ${process.env.CHROME_HEADLESS_SHELL_PATH}, but no file is there.`,
    );
  }
  return HEADLESS_SHELL_CANDIDATES.find((path) => existsSync(path)) ?? null;
}

/**
 * The browser a journey drives (ADR 073): the headless shell where it is installed, as it spends
 * about 2.6 times less CPU per context and page than the full browser on a two-core machine the
 * journeys keep busy; full Chromium where none is, or where the journey needs what only the browser
 * has. `systemNotifications`: the shell has no notification platform, so its `Notification.permission`
 * stays "denied" even once granted, and a page never offers to turn notifications on.
 */
export function journeyBrowserPath({ systemNotifications = false } = {}) {
  return (systemNotifications ? null : findHeadlessShell()) ?? ensureChromium();
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/etc/debian_version")) {
    console.log(
      "Chromium was not found: installing Debian's chromium package (apt-get install -y chromium)…",
    );
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    "Chromium is needed for the browser tests and was not found. Install it with:\n  sudo apt-get install -y chromium\nor set CHROME_PATH to a Chrome/Chromium binary.",
  );
}
