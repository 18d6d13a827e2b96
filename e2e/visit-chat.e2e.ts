import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account } from "./account-steps.ts";
import { clinicianFor, journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, takeLoggedErrors, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { type ClinicianAccount, clinicianApi, requestVisit } from "./clinician-helpers.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * The visit chat on the patient's messages page: a member's chat visit accepted by the journey's
 * own clinician, messages both ways without a reload, and the outbox: written while the browser is
 * offline, both messages arrive once when it is back; logging out clears what the outbox kept. The
 * clinician's side is called on the API.
 */

const { baseUrl, apiUrl } = journeyStack();
const CONSOLE = `${apiUrl}/api/v1/api/care-team/visits`;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function call(method: string, url: string, token: string | null, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A chat visit of the member with the clinician's provider, accepted by the clinician. */
async function acceptedChatVisit(patient: Account, clinician: ClinicianAccount, doctor: string) {
  const id = await requestVisit(apiUrl, patient, "chat", clinician);
  const accepted = await call("POST", `${CONSOLE}/${id}/accept`, doctor);
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
  return id;
}

describe("the visit chat", () => {
  it("carries messages both ways live, and sends what was written offline once the link is back", async () => {
    const clinician = clinicianFor("visit-chat");
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      const account = await newPatient(context);
      await startTrialSession(context, baseUrl);
      // The clinician's session: password, then a code of its authenticator by the API's clock.
      const doctor = (await clinicianApi(apiUrl, clinician)).token;
      const id = await acceptedChatVisit(account, clinician, doctor);

      await page.goto(`${baseUrl}/my-profile/messages?consultation=${id}`);
      await waitForHydration(page);
      const box = page.getByRole("textbox", { name: "Your message" });
      await box.fill("Hello, I have a cough.");
      await page.getByRole("button", { name: "Send" }).click();
      const thread = page.getByRole("list", { name: "Messages of this visit" });
      await thread.getByText("Hello, I have a cough.").waitFor();
      // Stored before the clinician answers (it shows at once, while its send is still on its way).
      await expect.poll(() => thread.getByText("Sending…").count()).toBe(0);

      // The clinician answers: the page shows it without a reload and says it in the live region.
      const answer = await call("POST", `${CONSOLE}/${id}/messages`, doctor, {
        body: "How long have you had it?",
        client_id: randomUUID(),
      });
      expect(answer.status).toBe(201);
      await thread.getByText("How long have you had it?").waitFor();
      await page.getByRole("status").filter({ hasText: "New message from Your clinician" }).waitFor();
      // The patient's page read it: the clinician's message carries the read receipt.
      await expect
        .poll(async () => {
          const read = await call("GET", `${CONSOLE}/${id}/messages`, doctor);
          const messages = read.json.data as Array<{ body: string; read_at: string | null }>;
          return messages.find((m) => m.body === "How long have you had it?")?.read_at ?? null;
        })
        .not.toBeNull();

      // Offline: two messages wait in the outbox, then arrive once each when the link is back.
      await context.setOffline(true);
      await box.fill("Since Sunday.");
      await page.getByRole("button", { name: "Send" }).click();
      await box.fill("It is worse at night.");
      await box.press("Control+Enter");
      await expect
        .poll(() => thread.getByText("Not sent yet: it will be sent when the connection returns").count())
        .toBe(2);
      await context.setOffline(false);
      await expect
        .poll(async () => {
          const listed = await call("GET", `${CONSOLE}/${id}/messages`, doctor);
          return (listed.json.data as Array<{ body: string }>).map((m) => m.body);
        })
        .toEqual([
          "Hello, I have a cough.",
          "How long have you had it?",
          "Since Sunday.",
          "It is worse at night.",
        ]);
      await expect.poll(() => thread.getByText("Not sent yet", { exact: false }).count()).toBe(0);
      expect(await thread.getByText("It is worse at night.").count()).toBe(1);

      await expectNoAxeViolations(page);

      // A message still waits in the outbox (its sends fail) when the patient logs out: nothing the
      // visit kept stays in this browser for the next person at this computer.
      const kept = () =>
        page.evaluate(() =>
          Object.keys(localStorage)
            .filter((key) => key.startsWith("ambercare.visit-chat."))
            .map((key) => localStorage.getItem(key) ?? ""),
        );
      await page.route(/\/visit-chat\/[0-9a-f-]+$/, (route) =>
        route.request().method() === "POST" ? route.abort("failed") : route.continue(),
      );
      await box.fill("Please call me back tonight.");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(async () => (await kept()).join()).toContain("Please call me back tonight.");
      await page.getByRole("banner").getByRole("button", { name: "Log out" }).click();
      await waitForPath(page, "/login");
      await expect.poll(kept).toEqual([]);

      // Requests that failed while the browser was offline, and the refused sends before the
      // logout, are the point of the test, not errors: failed resources, nothing else.
      const failedOnPurpose = /ERR_INTERNET_DISCONNECTED|ERR_FAILED|WebSocket/;
      expect(unexpected(consoleErrors).filter((e) => !failedOnPurpose.test(e))).toEqual([]);
      // The same errors, taken from the run's log so that the check after each test does not count
      // them again (which of the page's requests meet the offline moment depends on timing).
      expect(unexpected(takeLoggedErrors()).filter((e) => !failedOnPurpose.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
