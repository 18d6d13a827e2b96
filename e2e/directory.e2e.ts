import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, openContext, openPage, sharedTab } from "./browser.ts";
import { journeyStack } from "./journey-stack.ts";

/**
 * The provider directory: search by specialization and state, open a provider, paginate,
 * share the URL, the form without JavaScript, bad links, the remembered "available today" choice,
 * and axe on the results and the profile at 1280 and 320 px. The demo directory (300 generated
 * providers) is the data; the API is asked directly for what the pages should show.
 */
const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

type ApiProvider = {
  slug: string;
  name: string;
  states: string[];
  specializations: Array<{ slug: string; name: string }>;
  available_today: boolean;
  taking_visits: boolean;
  next_available: string | null;
};
type ApiList = { data: ApiProvider[]; meta: { page: number; per_page: number; total: number } };

async function apiSearch(query: Record<string, string>): Promise<ApiList> {
  const response = await fetch(`${apiUrl}/api/v1/api/provider?${new URLSearchParams(query)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ApiList;
}

/** The first provider of the whole directory (asked of the API page by page) who fits `wanted`. */
async function findProvider(
  wanted: (provider: ApiProvider) => boolean,
  query: Record<string, string> = {},
): Promise<ApiProvider | undefined> {
  for (let page = 1; page <= 20; page++) {
    const { data } = await apiSearch({ ...query, per_page: "50", page: String(page) });
    const found = data.find(wanted);
    if (found || data.length < 50) return found;
  }
  return undefined;
}

/** RegExp source of a literal text. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The names on the result cards, in order. */
async function cardNames(page: Page): Promise<string[]> {
  return page.locator("article h3").allInnerTexts();
}

let dermatologyState: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const dermatology = await apiSearch({ specialization: "dermatology", per_page: "50" });
  expect(dermatology.meta.total).toBeGreaterThan(0);
  dermatologyState = dermatology.data[0]?.states[0] as string;
});
afterAll(async () => {
  await browser?.close();
});

describe("find a doctor", () => {
  // One anonymous tab for the searches that leave nothing behind (no availabilityToday cookie).
  const tab = sharedTab(() => browser);
  it("searches by specialization and state with the form, and the URL holds the search", async () => {
    const page = tab.page;
    tab.takeConsoleErrors();
    {
      await page.goto(`${baseUrl}/find-a-doctor`);
      await page.getByLabel("Specialization").selectOption("dermatology");
      await page.getByLabel("Your state").selectOption(dermatologyState);
      await page.getByRole("button", { name: "Show doctors" }).click();
      await page.waitForURL(/specialization=dermatology/);
      const url = new URL(page.url());
      expect(url.searchParams.get("state")).toBe(dermatologyState);

      const expected = await apiSearch({ specialization: "dermatology", state: dermatologyState });
      const count = expected.meta.total === 1 ? "1 doctor found" : `${expected.meta.total} doctors found`;
      await expect.poll(() => page.getByRole("status").filter({ hasText: count }).count()).toBe(1);
      expect(await cardNames(page)).toEqual(
        expected.data.map((provider) => expect.stringContaining(provider.name)),
      );
      for (const text of await page.locator("article").allInnerTexts()) {
        expect(text).toContain("Dermatology");
        expect(text).toContain(dermatologyState);
      }
      // The filters show the search they produced.
      expect(await page.getByLabel("Specialization").inputValue()).toBe("dermatology");
      expect(tab.takeConsoleErrors()).toEqual([]);
    }
  });

  it("opens a provider's profile with everything to choose by and a way to consult", async () => {
    const page = tab.page;
    tab.takeConsoleErrors();
    {
      // A provider who takes visits (one with a clinician account): only they offer a way to consult.
      const taking = await findProvider((provider) => provider.taking_visits);
      if (!taking) throw new Error("the demo directory has nobody taking visits");
      await page.goto(`${baseUrl}/find-a-doctor?${new URLSearchParams({ q: taking.name })}`);
      const first = page.locator("article h3 a", { hasText: taking.name }).first();
      const name = (await first.innerText()).trim();
      await first.click();
      await page.waitForURL(/\/find-a-doctor\/[a-z0-9-]+$/);
      const slug = new URL(page.url()).pathname.split("/").pop() as string;

      await expect
        .poll(async () => (await page.getByRole("heading", { level: 1 }).innerText()).trim())
        .toBe(name);
      expect(await page.title()).toBe(`${name} | Ambercare`);
      for (const section of ["About", "Credentials", "Conditions treated", "Licensed in", "Languages"]) {
        expect(await page.getByRole("heading", { level: 2, name: section }).count()).toBe(1);
      }
      const consult = page.getByRole("link", { name: /^Start a consultation/ });
      expect(await consult.getAttribute("href")).toBe(`/consultation/consult?provider=${slug}`);
      expect(tab.takeConsoleErrors()).toEqual([]);
    }
  });

  it("paginates with links that keep the search, marks the current page, and Back returns", async () => {
    const page = tab.page;
    tab.takeConsoleErrors();
    {
      const all = await apiSearch({});
      expect(all.meta.total).toBeGreaterThan(40);
      await page.goto(`${baseUrl}/find-a-doctor?sort=name`);
      const pager = page.getByRole("navigation", { name: "Pages of results" });
      expect(
        await pager.getByRole("link", { name: "Page 1", exact: true }).getAttribute("aria-current"),
      ).toBe("page");
      const firstPage = await cardNames(page);

      await pager.getByRole("link", { name: "Next page" }).click();
      await page.waitForURL(/page=2/);
      expect(new URL(page.url()).searchParams.get("sort")).toBe("name");
      await expect
        .poll(() => pager.getByRole("link", { name: "Page 2", exact: true }).getAttribute("aria-current"))
        .toBe("page");
      const expected = await apiSearch({ sort: "name", page: "2" });
      await expect
        .poll(() => cardNames(page))
        .toEqual(expected.data.map((provider) => expect.stringContaining(provider.name)));
      const secondPage = await cardNames(page);
      expect(secondPage).not.toEqual(firstPage);

      await page.goBack();
      await page.waitForURL((url) => !url.searchParams.has("page"));
      await expect.poll(() => cardNames(page)).toEqual(firstPage);
      expect(tab.takeConsoleErrors()).toEqual([]);
    }
  });

  it("shows the same results to whoever opens a shared URL", async () => {
    const first = await openPage(browser);
    const second = await openPage(browser);
    try {
      await first.page.goto(`${baseUrl}/find-a-doctor`);
      await first.page.getByRole("radio", { name: "Video", exact: true }).check();
      await first.page.getByLabel("Sort by").selectOption("name");
      await first.page.getByRole("button", { name: "Show doctors" }).click();
      await first.page.waitForURL(/type=video/);
      // The URL changes a moment before React renders the new results: until then the pager on
      // screen is the previous search's, and its "Next page" leads elsewhere.
      const next = first.page
        .getByRole("navigation", { name: "Pages of results" })
        .getByRole("link", { name: "Next page" });
      const searchOf = async () => {
        const params = new URLSearchParams((await next.getAttribute("href"))?.split("?")[1]);
        return { type: params.get("type"), sort: params.get("sort") };
      };
      await expect.poll(searchOf).toEqual({ type: "video", sort: "name" });
      await next.click();
      await first.page.waitForURL(/page=2/);
      const expected = await apiSearch({ type: "video", sort: "name", page: "2" });
      await expect
        .poll(() => cardNames(first.page))
        .toEqual(expected.data.map((provider) => expect.stringContaining(provider.name)));
      const shared = first.page.url();
      const names = await cardNames(first.page);
      expect(names.length).toBeGreaterThan(0);

      await second.page.goto(shared);
      expect(await cardNames(second.page)).toEqual(names);
      expect(await second.page.getByRole("radio", { name: "Video", exact: true }).isChecked()).toBe(true);
      expect(await second.page.getByLabel("Sort by").inputValue()).toBe("name");
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it("works without JavaScript: the form is a plain GET form", async () => {
    const { context } = await openContext(browser, { javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/find-a-doctor`);
      await page.getByLabel("Name").fill("a");
      await page.getByLabel("Specialization").selectOption("dermatology");
      await page.getByRole("button", { name: "Show doctors" }).click();
      await page.waitForURL(/specialization=dermatology/);
      const expected = await apiSearch({ q: "a", specialization: "dermatology" });
      expect(await cardNames(page)).toEqual(
        expected.data.map((provider) => expect.stringContaining(provider.name)),
      );
      expect(await page.getByLabel("Name").inputValue()).toBe("a");
    } finally {
      await context.close();
    }
  });

  it("lays a profile out for wide screens and says when a provider not on duty means being seen", async () => {
    // A provider who takes visits (a clinician account, ADR 059) but is not on duty today.
    const offDuty = await findProvider((provider) => provider.taking_visits, { available_today: "false" });
    if (!offDuty) throw new Error("the demo directory has nobody off duty who takes visits");
    const { context, page, consoleErrors } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    try {
      await page.goto(`${baseUrl}/find-a-doctor/${offDuty.slug}`);
      const card = page.getByTestId("provider-start");
      await card.getByRole("heading", { level: 2, name: "Start a consultation" }).waitFor();
      const note = card.getByTestId("not-on-duty");
      const said = (await note.textContent()) ?? "";
      // "X is not on duty today." alone, or ", and no other clinician is on duty right now" with it.
      expect(said).toMatch(
        new RegExp(`^${literally(offDuty.name)} is not on duty today(\\.|, and no other clinician)`),
      );
      expect(said).toContain("If you start a consultation");
      // One of the three honest answers: a wait in minutes, nobody on duty yet, or the rule alone.
      expect(said).toMatch(
        /expect to be seen in about \d+ minutes|nobody can see you yet|then goes to any clinician on duty/,
      );
      expect(
        await note.getByRole("link", { name: "See the doctors available today" }).getAttribute("href"),
      ).toBe("/find-a-doctor?available_today=true");
      // Taking visits, so the request can still be started.
      expect(await card.getByRole("link", { name: /^Start a consultation/ }).getAttribute("href")).toBe(
        `/consultation/consult?provider=${offDuty.slug}`,
      );
      // Wide: the start card in a side column beside the profile, its top level with the name.
      const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
      const about = await page.getByRole("heading", { level: 2, name: "About" }).boundingBox();
      const side = await card.boundingBox();
      if (!heading || !about || !side) throw new Error("the profile is not laid out");
      expect(side.x).toBeGreaterThan(640);
      expect(side.x).toBeGreaterThan(about.x + about.width);
      expect(side.y).toBeLessThan(heading.y + heading.height);
      await expectNoAxeViolations(page);

      // A phone: one column, the card after the name and before the details, nothing too wide.
      await page.setViewportSize({ width: 320, height: 800 });
      const narrowSide = await card.boundingBox();
      const narrowAbout = await page.getByRole("heading", { level: 2, name: "About" }).boundingBox();
      if (!narrowSide || !narrowAbout) throw new Error("the profile is not laid out");
      expect(narrowSide.y).toBeLessThan(narrowAbout.y);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await expectNoAxeViolations(page);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says plainly which providers take no visits yet, and offers the doctors available today instead", async () => {
    const notTaking = await findProvider((provider) => !provider.taking_visits);
    if (!notTaking) throw new Error("the demo directory has nobody without a clinician account");
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      // The card in the results.
      await page.goto(`${baseUrl}/find-a-doctor?q=${encodeURIComponent(notTaking.name)}`);
      const card = page.getByRole("article", { name: new RegExp(`^${literally(notTaking.name)},`) }).first();
      await card.waitFor();
      expect(await card.getByTestId("not-taking-visits").innerText()).toBe("Not taking visits yet");
      expect(await card.getByText("Available today").count()).toBe(0);
      expect(await card.getByTestId("next-available").count()).toBe(0);

      // The profile: said plainly, no way to start a consultation, the doctors available today instead.
      await page.goto(`${baseUrl}/find-a-doctor/${notTaking.slug}`);
      const start = page.getByTestId("provider-start");
      const note = start.getByTestId("not-taking-visits-note");
      expect(await note.innerText()).toContain(`${notTaking.name} is not taking visits yet`);
      expect(await start.getByTestId("not-on-duty").count()).toBe(0);
      expect(await page.getByRole("link", { name: /^Start a consultation/ }).count()).toBe(0);
      expect(await page.locator('a[href^="/consultation/"]').count()).toBe(0);
      expect(
        await note.getByRole("link", { name: "See the doctors available today" }).getAttribute("href"),
      ).toBe("/find-a-doctor?available_today=true");
      await expectNoAxeViolations(page);

      // The same in Bulgarian.
      await page.goto(`${baseUrl}/find-a-doctor/${notTaking.slug}?lang=bg`);
      expect(await page.getByTestId("not-taking-visits-note").innerText()).toContain(
        "все още не приема консултации",
      );
      expect(await page.locator('a[href^="/consultation/"]').count()).toBe(0);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a provider's next free time in the visitor's language and time zone", async () => {
    const booked = await findProvider(
      (provider) => provider.taking_visits && provider.next_available !== null,
    );
    if (!booked?.next_available) throw new Error("the demo directory has nobody with a free slot ahead");
    /** The provider's next free time as the API gives it now (the provider's own answer). */
    const nextNow = async () => {
      const response = await fetch(`${apiUrl}/api/v1/api/provider/${booked.slug}`);
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: ApiProvider };
      if (!data.next_available) throw new Error(`${booked.slug} has no free slot ahead any more`);
      return data.next_available;
    };
    // "Tue 3:30 PM PST" in the visitor's zone, spaces plain.
    const inZone = (next: string, locale: string, timeZone: string) =>
      new Intl.DateTimeFormat(locale, {
        weekday: "short",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
        timeZone,
      })
        .format(new Date(next))
        .replace(/\s/g, " ");
    const plain = (text: string) => text.replace(/\s/g, " ").trim();
    /**
     * Loads `url` and waits until `shown` says `label` with the next free time the page was given.
     * A slot can stop being offered while the page loads (its start passes the booking notice), so
     * the page's answer is whichever of the API's answers just before and just after the load it
     * matches: its data was read between the two.
     */
    const expectNextShown = async (
      page: Page,
      url: string,
      shown: () => Promise<string>,
      label: string,
      locale: string,
      timeZone: string,
    ) => {
      const before = await nextNow();
      await page.goto(url);
      const after = await nextNow();
      const allowed = [...new Set([before, after])].map(
        (next) => `${label}${inZone(next, locale, timeZone)}`,
      );
      await expect.poll(async () => plain(await shown())).toBeOneOf(allowed);
    };
    const { context, page, consoleErrors } = await openPage(browser, { timezoneId: "America/Los_Angeles" });
    try {
      expect(inZone(booked.next_available, "en-US", "America/Los_Angeles")).toMatch(
        /^[A-Z][a-z]{2},? \d{1,2}:\d{2} [AP]M P[SD]T$/,
      );
      const start = page.getByTestId("provider-start");
      // A visitor without an account: the browser's zone once the page is hydrated (ADR 044).
      await expectNextShown(
        page,
        `${baseUrl}/find-a-doctor/${booked.slug}`,
        () => start.getByTestId("next-available").innerText(),
        "Next available: ",
        "en-US",
        "America/Los_Angeles",
      );
      expect(await page.getByRole("link", { name: /^Start a consultation/ }).count()).toBe(1);

      // The card in the results says the same.
      const card = page.getByRole("article", { name: new RegExp(`^${literally(booked.name)},`) }).first();
      await expectNextShown(
        page,
        `${baseUrl}/find-a-doctor?q=${encodeURIComponent(booked.name)}`,
        () => card.getByTestId("next-available").innerText(),
        "Next available: ",
        "en-US",
        "America/Los_Angeles",
      );
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
    // Another visitor, in Sofia and in Bulgarian: their zone and their words.
    expect(inZone(booked.next_available, "bg-BG", "Europe/Sofia")).not.toBe(
      inZone(booked.next_available, "bg-BG", "America/Los_Angeles"),
    );
    const sofia = await openPage(browser, { timezoneId: "Europe/Sofia" });
    try {
      await expectNextShown(
        sofia.page,
        `${baseUrl}/find-a-doctor/${booked.slug}?lang=bg`,
        () => sofia.page.getByTestId("next-available").innerText(),
        "Следващ свободен час: ",
        "bg-BG",
        "Europe/Sofia",
      );
    } finally {
      await sofia.context.close();
    }
  });

  it("offers a way out of an empty search", async () => {
    const page = tab.page;
    await page.goto(`${baseUrl}/find-a-doctor?q=zzzzzz`);
    expect(await page.getByRole("heading", { name: "No doctors match this search" }).count()).toBe(1);
    // Besides clearing the filters: a visit with whichever clinician is on duty.
    expect(
      await page
        .getByRole("link", { name: "Request a visit with any available clinician" })
        .getAttribute("href"),
    ).toBe("/consultation/consult");
    await page.getByRole("main").getByRole("link", { name: "Clear filters" }).last().click();
    await page.waitForURL((url) => !url.searchParams.has("q"));
    await expect.poll(async () => (await cardNames(page)).length).toBe(20);
  });

  it("answers a bad link with a clear message and keeps what it held", async () => {
    const page = tab.page;
    {
      const response = await page.goto(`${baseUrl}/find-a-doctor?state=ZZ&q=Ann&page=0`);
      expect(response?.status()).toBe(400);
      const alert = page.getByRole("alert");
      expect(await alert.innerText()).toContain("This search could not be read");
      expect(await alert.innerText()).toContain("state");
      expect(await alert.innerText()).toContain("page number");
      expect(await page.getByLabel("Name").inputValue()).toBe("Ann");

      const missing = await page.goto(`${baseUrl}/find-a-doctor/no-such-doctor-0`);
      expect(missing?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Page Not Found");
    }
  });

  it("remembers 'available today' for an hour in the availabilityToday cookie", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/find-a-doctor`);
      await page.getByLabel("Available today only").check();
      await page.getByRole("button", { name: "Show doctors" }).click();
      await page.waitForURL(/available_today=true/);
      const cookie = (await context.cookies()).find((c) => c.name === "availabilityToday");
      expect(cookie?.value).toBe("true");
      expect(cookie?.httpOnly).toBe(true);
      const lifetime = (cookie?.expires ?? 0) - Date.now() / 1000;
      expect(lifetime).toBeGreaterThan(3500);
      expect(lifetime).toBeLessThanOrEqual(3600);

      // Back on the directory later (from the menu): the choice is back, and in the URL.
      await page.goto(`${baseUrl}/find-a-doctor`);
      expect(new URL(page.url()).searchParams.get("available_today")).toBe("true");
      expect(await page.getByLabel("Available today only").isChecked()).toBe(true);
      for (const text of await page.locator("article").allInnerTexts())
        expect(text).toContain("Available today");

      await page.getByRole("link", { name: "Clear filters" }).first().click();
      await page.waitForURL((url) => !url.searchParams.has("available_today"));
      await expect.poll(() => page.getByLabel("Available today only").isChecked()).toBe(false);
      expect((await context.cookies()).some((c) => c.name === "availabilityToday")).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe("on a phone", () => {
  it("folds the filters under a summary of the active ones, so the first result is near the top", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { context } = await openContext(browser, {
        viewport: { width: 375, height: 812 },
        javaScriptEnabled,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/find-a-doctor?specialization=dermatology&type=video&sort=rating`);
        const summary = page.locator("details.directory-filters > summary");
        expect((await summary.innerText()).replace(/\s+/g, " ")).toContain(
          "Filter the doctors 2 active filters",
        );
        expect(await page.getByLabel("Name").isVisible()).toBe(false);
        const firstCard = await page.locator("article").first().boundingBox();
        expect(firstCard?.y).toBeLessThan(812);
        await summary.click();
        await expect.poll(() => page.getByLabel("Name").isVisible()).toBe(true);
        expect(await page.getByLabel("Specialization").inputValue()).toBe("dermatology");
        await page.goto(`${baseUrl}/find-a-doctor?lang=bg&state=CA&sort=rating`);
        expect((await summary.innerText()).replace(/\s+/g, " ")).toContain(
          "Филтриране на лекарите 1 активен филтър",
        );
      } finally {
        await context.close();
      }
    }
  });

  it("keeps them open beside the results on a wide screen, with or without JavaScript", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { context } = await openContext(browser, { javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/find-a-doctor?specialization=dermatology&sort=rating`);
        expect(await page.getByLabel("Name").isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    }
  });
});

const VIEWPORTS = [
  { name: "1280 px", width: 1280, height: 900 },
  { name: "320 px", width: 320, height: 700 },
] as const;

describe.each(VIEWPORTS)("axe-core at $name", (viewport) => {
  it("finds no violation on the results, the profile and the catalogue pages", async () => {
    const { context, page } = await openPage(browser, { viewport });
    try {
      await page.goto(`${baseUrl}/find-a-doctor?specialization=dermatology&sort=rating`);
      await expectNoAxeViolations(page);
      // The profile of a provider who takes visits, with its way to consult.
      const taking = await findProvider((provider) => provider.taking_visits);
      if (!taking) throw new Error("the demo directory has nobody taking visits");
      await page.goto(`${baseUrl}/find-a-doctor/${taking.slug}`);
      await page.getByRole("link", { name: /^Start a consultation/ }).waitFor();
      await expectNoAxeViolations(page);
      await page.goto(`${baseUrl}/find-a-doctor?q=zzzzzz`);
      await expectNoAxeViolations(page);
      await page.goto(`${baseUrl}/find-a-doctor?state=ZZ`);
      await expectNoAxeViolations(page);
      await page.goto(`${baseUrl}/find-a-doctor?lang=bg`);
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });
});

describe("in Bulgarian", () => {
  it("shows the directory's Bulgarian names, descriptions and bios from the database", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      const response = await fetch(`${apiUrl}/api/v1/api/specialization?lang=bg`);
      expect(response.status).toBe(200);
      const { data: specializations } = (await response.json()) as {
        data: Array<{ slug: string; name: string; description: string }>;
      };
      const dermatology = specializations.find((item) => item.slug === "dermatology");
      expect(dermatology?.name).toBe("Дерматология");
      await page.goto(`${baseUrl}/specializations?lang=bg`);
      const main = page.getByRole("main");
      await expect.poll(() => main.innerText()).toContain(dermatology?.name);
      expect(await main.innerText()).toContain(dermatology?.description);

      const [found] = (await apiSearch({ specialization: "dermatology", lang: "bg" })).data;
      // A search answers with result cards; the bio is on the provider's own answer.
      const detail = await fetch(`${apiUrl}/api/v1/api/provider/${found?.slug}?lang=bg`);
      expect(detail.status).toBe(200);
      const provider = ((await detail.json()) as { data: ApiProvider & { bio: string } }).data;
      expect(provider.bio).toMatch(/[\u0400-\u04FF]/);
      await page.goto(`${baseUrl}/find-a-doctor/${provider.slug}?lang=bg`);
      await expect.poll(() => main.innerText()).toContain(provider.bio);
      expect(await main.innerText()).toContain("Дерматология");
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("specializations and conditions", () => {
  it("link each specialization and condition to the directory filtered by it", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/specializations`);
      await page.getByRole("link", { name: "See Dermatology doctors" }).click();
      await page.waitForURL(/\/find-a-doctor\?specialization=dermatology$/);
      const expected = await apiSearch({ specialization: "dermatology" });
      const count = `${expected.meta.total} doctors found`;
      await expect.poll(() => page.getByRole("status").filter({ hasText: count }).count()).toBe(1);

      await page.goto(`${baseUrl}/conditions-we-see`);
      const condition = page.getByRole("main").locator('a[href^="/find-a-doctor?condition="]').first();
      const href = (await condition.getAttribute("href")) as string;
      await condition.click();
      await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
      const slug = new URLSearchParams(href.split("?")[1]).get("condition") as string;
      const matches = await apiSearch({ condition: slug });
      expect(matches.meta.total).toBeGreaterThan(0);
      // The URL changes as the navigation starts; the cards follow when its data has arrived.
      await expect.poll(async () => (await cardNames(page)).length).toBe(Math.min(20, matches.meta.total));
    } finally {
      await context.close();
    }
  });
});
