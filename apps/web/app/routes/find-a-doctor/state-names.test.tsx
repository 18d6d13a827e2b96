import type { Provider } from "@ambercare/contracts/provider";
import { offersOf } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import type { Locale } from "#app/lib/i18n.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";
import bg from "#app/locales/bg.json";
import ProviderPage from "./provider.tsx";

const provider: Provider = {
  id: "6f1c2b1e-3d4a-4b5c-8d9e-0a1b2c3d4e5f",
  slug: "ana-petrova-7",
  name: "Ana Petrova",
  first_name: "Ana",
  last_name: "Petrova",
  credentials: "MD",
  photo: null,
  bio: "Dr. Ana Petrova is a physician.",
  specializations: [{ slug: "dermatology", name: "Dermatology" }],
  conditions: [{ slug: "acne", name: "Acne" }],
  states: ["WA", "NY"],
  languages: ["en"],
  ...offersOf(["video"]),
  available_today: true,
  expected_wait_minutes: null,
  next_available: null,
  taking_visits: true,
  rating: { average: 4.5, count: 2 },
};

function renderProfile(locale: Locale): string {
  const loaderData = { provider, languages: ["English"], othersWait: null, freeTimes: [] };
  const page = (
    // biome-ignore lint/suspicious/noExplicitAny: the route's generated props are more than the page reads
    <ProviderPage {...({ loaderData } as any)} />
  );
  return renderInPage(page, locale);
}

describe("a provider's profile", () => {
  it("names the licence states in the page's language, as the profile form does", () => {
    expect(renderProfile("en")).toContain("Washington (WA)");
    const html = renderProfile("bg");
    expect(html).toContain(`${bg.profile.states.WA} (WA)`);
    expect(html).toContain(`${bg.profile.states.NY} (NY)`);
    expect(html).not.toContain("Washington");
  });
});
