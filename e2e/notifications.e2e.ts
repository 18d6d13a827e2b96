import { createECDH, randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyStack, newPatient } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, unexpected } from "./browser.ts";

/**
 * Web push in the browser (ADR 064): My profile › Notifications turns notifications on for this
 * browser only after a click (the permission granted as a person would; the push service's
 * subscription given by the page's PushManager, which cannot reach a vendor's push service from
 * here, so the journey hands it an endpoint and real P-256 keys), lists the device, saves its
 * choices; a push delivered to the registered service worker through the DevTools protocol shows a
 * notification with the visit's page; axe-clean.
 */

const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("notifications", () => {
  it("turns notifications on for this device, saves its choices, and shows a pushed notification", async () => {
    const { context, page, consoleErrors } = await openPage(browser, { serviceWorkers: "allow" });
    try {
      await context.grantPermissions(["notifications"], { origin: baseUrl });
      const keys = createECDH("prime256v1");
      keys.generateKeys();
      const subscription = {
        endpoint: "http://127.0.0.1:9/push/journey-device",
        keys: {
          p256dh: keys.getPublicKey().toString("base64url"),
          auth: randomBytes(16).toString("base64url"),
        },
      };
      await context.addInitScript((given) => {
        const fake = { endpoint: given.endpoint, toJSON: () => ({ ...given, expirationTime: null }) };
        let subscribed = false;
        PushManager.prototype.subscribe = async function subscribe() {
          subscribed = true;
          return fake as unknown as PushSubscription;
        };
        PushManager.prototype.getSubscription = async function getSubscription() {
          return (
            subscribed || sessionStorage.getItem("journey-subscribed") ? fake : null
          ) as PushSubscription | null;
        };
        addEventListener("pagehide", () => {
          if (subscribed) sessionStorage.setItem("journey-subscribed", "1");
        });
      }, subscription);
      await newPatient(context);
      await page.goto(`${baseUrl}/my-profile/notifications`);
      await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
      await page.getByText("No device receives notifications yet.").waitFor();
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: "Turn on notifications on this device" }).click();
      await page.getByRole("status").getByText("Notifications are on for this device.").waitFor();
      await page.reload();
      const device = page.getByRole("listitem").filter({ hasText: "(this device)" });
      await device.waitFor();
      const refund = device.getByLabel("A payment was refunded");
      expect(await refund.isChecked()).toBe(true);
      await refund.uncheck();
      await device.getByLabel("Show details on this device").check();
      await device.getByRole("button", { name: "Save choices" }).click();
      await page.getByRole("status").getByText("Your choices are saved.").waitFor();
      await page.reload();
      expect(await page.getByLabel("A payment was refunded").isChecked()).toBe(false);
      expect(await page.getByLabel("Show details on this device").isChecked()).toBe(true);
      await expectNoAxeViolations(page);

      // A push delivered to the page's service worker shows the notification it carries.
      const cdp = await context.newCDPSession(page);
      const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
      cdp.on("ServiceWorker.workerRegistrationUpdated", (event) =>
        registrations.push(...event.registrations),
      );
      await page.evaluate(async () => navigator.serviceWorker.ready);
      await cdp.send("ServiceWorker.enable");
      await expect.poll(() => registrations.length).toBeGreaterThan(0);
      const registration = registrations.find((row) => row.scopeURL.startsWith(baseUrl))!;
      const visit = "/my-profile/consultations/00000000-0000-4000-8000-000000000001";
      await cdp.send("ServiceWorker.deliverPushMessage", {
        origin: new URL(baseUrl).origin,
        registrationId: registration.registrationId,
        data: JSON.stringify({
          title: "Ambercare",
          body: "You have an update about your visit.",
          url: visit,
          tag: "visit_accepted:1",
        }),
      });
      const shown = async () =>
        page.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            data: n.data,
          })),
        );
      await expect
        .poll(shown)
        .toEqual([
          { title: "Ambercare", body: "You have an update about your visit.", data: { url: visit } },
        ]);

      await page.getByRole("button", { name: /Stop notifications on/ }).click();
      await page.getByRole("status").getByText("That device will get no more notifications.").waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
