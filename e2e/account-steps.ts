import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";

/**
 * Account helpers for journeys and benchmarks, driven as a visitor would: by label and role, through
 * the real forms. `signUp()` and `login()` leave the page logged in; `newAccount()` makes unique test
 * data. Free of the test runner (node:assert checks): auth-helpers.ts adds what needs it.
 */

export type Account = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
};

/** A fresh account (a unique e-mail address on the reserved example.org domain). */
export function newAccount(overrides: Partial<Account> = {}): Account {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return {
    firstName: "Jane",
    lastName: "Tester",
    email: `e2e-${id}@example.org`,
    password: "violet harbor lamp 42",
    ...overrides,
  };
}

export const PROFILE = Object.freeze({
  dateOfBirth: "1990-03-27",
  phone: "206 555 0100",
  addressLine1: "1 Pine St",
  city: "Seattle",
  state: "Washington",
  zip: "98101",
  gender: "Female",
});

/** Waits until the page is at `path` (pathname only) after a navigation or a form submission. */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

/** Waits until React has hydrated the page and rendered its JavaScript-only controls. */
export async function waitForHydration(page: Page): Promise<void> {
  // The root layout marks <html> in the render after hydration: the router and its scroll
  // restoration are listening by then, and the JavaScript-only controls have appeared.
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

/**
 * Signs up through /sign-up and follows the link of the sign-up e-mail (read from the stack's mail
 * files, as the reset-password journey reads its mail); the page ends on /almost-there, logged in.
 * The form carries the site's captcha, which runs once React has hydrated the page: the helper waits
 * for that, and the form itself holds the submission until the captcha is solved.
 */
export async function signUp(
  page: Page,
  baseUrl: string,
  account: Account,
  /** The DATA_DIR of the stack at `baseUrl` (its e-mails). */
  stackDataDir: string,
): Promise<void> {
  const since = Date.now();
  await page.goto(`${baseUrl}/sign-up`);
  await waitForHydration(page);
  await page.getByLabel("First name", { exact: true }).fill(account.firstName);
  await page.getByLabel("Last name", { exact: true }).fill(account.lastName);
  await page.getByLabel("E-mail address", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("checkbox", { name: /I agree to the Terms of Use/ }).check();
  await page.getByRole("button", { name: "Create account" }).click();

  // "Check your e-mail", focused so that it is read out, with the address still in the form.
  const sent = page.getByRole("status").filter({ hasText: "Check your e-mail" });
  await sent.waitFor();
  assert.ok((await sent.textContent())?.includes(account.email), "the address in Check your e-mail");
  await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "status");
  assert.equal(await page.getByLabel("E-mail address", { exact: true }).inputValue(), account.email);

  const dataDir = stackDataDir;
  assert.notEqual(dataDir, "", "E2E_DATA_DIR (the stack's DATA_DIR) is needed to read the e-mail");
  const mail = await latestMail(dataDir, { template: "sign-up-confirmation", to: account.email, since });
  await page.goto(`${baseUrl}${linkIn(mail, "/sign-up/confirm")}`);
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await waitForPath(page, "/almost-there");
  await page.getByRole("heading", { level: 1, name: "Almost there" }).waitFor();
}

/** Fills the profile fields (on /almost-there or /my-profile) with PROFILE, name kept. */
export async function fillProfile(page: Page, profile: Partial<typeof PROFILE> = {}): Promise<void> {
  const values = { ...PROFILE, ...profile };
  await page.getByLabel("Date of birth").fill(values.dateOfBirth);
  await page.getByLabel("Phone number").fill(values.phone);
  await page.getByLabel("Address line 1").fill(values.addressLine1);
  await page.getByLabel("City").fill(values.city);
  await page.getByLabel("State").selectOption({ label: values.state });
  await page.getByLabel("ZIP code").fill(values.zip);
  await page.getByLabel("Gender").selectOption({ label: values.gender });
}

/** Logs in through /login; `expectPath` is where the visitor should land (default /). */
export async function login(
  page: Page,
  baseUrl: string,
  credentials: Pick<Account, "email" | "password">,
  options: { from?: string; expectPath?: string } = {},
): Promise<void> {
  if (options.from !== undefined || !new URL(page.url()).pathname.startsWith("/login")) {
    await page.goto(`${baseUrl}${options.from ?? "/login"}`);
  }
  await page.getByLabel("E-mail address", { exact: true }).fill(credentials.email);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await waitForPath(page, options.expectPath ?? "/");
}

/** Logs out with the header's button; the page ends on /login. */
export async function logout(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("button", { name: "Log out" }).first().click();
  await waitForPath(page, "/login");
  await page.getByRole("heading", { level: 1, name: "Log in" }).waitFor();
}

/** The decoded text parts of an .eml file (quoted-printable and base64 handled). */
export function mailText(eml: string): string {
  const decodeQp = (text: string) =>
    Buffer.from(
      text
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      "latin1",
    ).toString("utf8");
  const parts = eml.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts
    .map((part) => {
      const [head = "", ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join("\n\n");
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
      if (encoding === "quoted-printable") return decodeQp(body);
      if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
      return body;
    })
    .join("\n");
}

/**
 * The newest e-mail of `template` to `to`, written under `${dataDir}/mail/` after `since` (ms since
 * the epoch), waiting a few seconds for the API to write it (it sends in the background).
 */
export async function latestMail(
  dataDir: string,
  { template, to, since }: { template: string; to: string; since: number },
  timeoutMs = 10_000,
): Promise<string> {
  const directory = join(dataDir, "mail");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = await readdir(directory).catch(() => [] as string[]);
    const candidates = await Promise.all(
      names
        .filter((name) => name.endsWith(".eml") && name.includes(`-${template}-`))
        .map(async (name) => ({ name, mtime: (await stat(join(directory, name))).mtimeMs })),
    );
    const recent = candidates.filter((c) => c.mtime >= since - 1_000).sort((a, b) => b.mtime - a.mtime);
    for (const candidate of recent) {
      const eml = await readFile(join(directory, candidate.name), "utf8");
      if (new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "mi").test(eml))
        return mailText(eml);
    }
    if (Date.now() > deadline)
      throw new Error(`no ${template} e-mail to ${to} in ${directory} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first link to `path` in an e-mail's text, as a path + query on the site under test. */
export function linkIn(text: string, path: string): string {
  const match = new RegExp(
    `https?://[^\\s"'<>]+${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"'<>]*`,
  ).exec(text);
  assert.ok(match, `a ${path} link in the e-mail`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}
