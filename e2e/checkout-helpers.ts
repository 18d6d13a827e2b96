import { formatUsd, PLANS } from "@ambercare/contracts/plans";
import { type VisitType, visitTypeRow } from "@ambercare/contracts/visit-types";
import type { BrowserContext, Page } from "playwright-core";
import { waitForPath } from "./account-steps.ts";

/** Journeys that pay on the demo checkout page (/checkout/{id}; docs/decisions/015). */

export type Card = { number: string; expiry?: string; cvc?: string; name?: string };

export const SUCCESS_CARD = "4242 4242 4242 4242";

export async function fillCard(page: Page, card: Card): Promise<void> {
  await page.getByLabel("Card number").fill(card.number);
  await page.getByLabel("Expiry date").fill(card.expiry ?? "12/34");
  await page.getByLabel("Security code (CVC)").fill(card.cvc ?? "123");
  await page.getByLabel("Name on card").fill(card.name ?? "Jane Tester");
}

/**
 * Journeys about something else start with the not-subscribed popup dismissed (as its "Not now"
 * would leave it), so that a slow machine cannot put it over the page they are using.
 */
export async function dismissPopupBeforehand(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    // Every document of the context runs this, a new tab's first about:blank too, where reading
    // sessionStorage throws a SecurityError: only the site's own pages need the dismissal.
    if (location.protocol === "about:") return;
    sessionStorage.setItem("ambercare.notSubscribedPopup.dismissed", "true");
  });
}

/** A logged-in patient buys a one-time visit with the success card. */
export async function buyVisit(page: Page, baseUrl: string, type: VisitType): Promise<void> {
  const price = formatUsd(PLANS[visitTypeRow(type).planKey].priceCents);
  await page.goto(`${baseUrl}/one-time-visit`);
  await page.getByRole("button", { name: `Buy a ${type} visit for ${price}` }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/checkout/"));
  await fillCard(page, { number: SUCCESS_CARD });
  await page.getByRole("button", { name: `Pay ${price}` }).click();
  await waitForPath(page, "/thank-you-for-ordering");
}
