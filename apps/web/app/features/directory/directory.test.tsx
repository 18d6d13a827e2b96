import type { Provider } from "@ambercare/contracts/provider";
import { offersOf } from "@ambercare/contracts/visit-types";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  FiltersDisclosure,
  NotOnDutyNote,
  Pagination,
  ProviderCard,
  ProviderRating,
} from "#app/features/directory/directory.tsx";
import type { Locale } from "#app/lib/i18n.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

function render(node: ReactNode, locale: Locale = "en"): string {
  return renderInPage(node, locale);
}

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
  states: ["CA", "NY"],
  languages: ["en", "bg"],
  ...offersOf(["chat"]),
  available_today: true,
  expected_wait_minutes: null,
  next_available: null,
  taking_visits: true,
  rating: { average: 4.46, count: 12 },
};

describe("the directory's pieces", () => {
  it("say the rating in words and hide the stars from screen readers", () => {
    const html = render(<ProviderRating rating={provider.rating} />);
    expect(html).toContain('<span aria-hidden="true"');
    expect(html).toContain("★★★★☆");
    expect(html).toContain("Rated 4.5 out of 5");
    expect(html).toContain("(12 ratings)");
    expect(render(<ProviderRating rating={{ average: 0, count: 0 }} />)).toContain("No ratings yet");
    expect(render(<ProviderRating rating={{ average: 5, count: 1 }} />, "bg")).toContain("Оценка 5,0 от 5");
  });

  it("show initials, never a stock photo, for a provider without one, and link the name", () => {
    const html = render(<ProviderCard provider={provider} />);
    expect(html).toMatch(/<span aria-hidden="true"[^>]*>AP<\/span>/);
    expect(html).not.toContain("<img");
    expect(html).toContain('href="/find-a-doctor/ana-petrova-7"');
    expect(html).toContain("Ana Petrova, MD");
    expect(html).toContain("CA, NY");
    expect(html).toContain("Chat");
    expect(html).not.toContain(">Video<");
    expect(html).toContain("Available today");
  });

  it("say plainly on the card when a provider takes no visits yet, and when one is next free", () => {
    const notTaking = render(
      <ProviderCard provider={{ ...provider, available_today: false, taking_visits: false }} />,
    );
    expect(notTaking).toContain("Not taking visits yet");
    expect(notTaking).not.toContain("Available today");
    expect(render(<ProviderCard provider={{ ...provider, taking_visits: false }} />, "bg")).toContain(
      "Все още не приема консултации",
    );
    // No zone known on the server for a visitor: UTC, named.
    const next = render(
      <ProviderCard
        provider={{ ...provider, available_today: false, next_available: "2026-12-01T23:30:00.000Z" }}
      />,
    );
    expect(next.replace(/\s/g, " ")).toContain("Next available: Tue, 11:30 PM UTC");
    expect(render(<ProviderCard provider={provider} />)).not.toContain("Next available");
  });

  it("mark the current page and keep the search in every page link", () => {
    const html = render(<Pagination page={2} pageCount={5} search="?state=CA&page=2" />);
    expect(html).toContain('<nav aria-label="Pages of results"');
    expect(html).toMatch(/aria-label="Page 2" aria-current="page"/);
    expect(html).toContain('href="/find-a-doctor?state=CA"');
    expect(html).toContain('href="/find-a-doctor?state=CA&amp;page=3"');
    expect(render(<Pagination page={1} pageCount={1} search="" />)).toBe("");
  });

  it("fold the filters into a disclosure that tells how many are active, in both languages", () => {
    const values = { q: "ana", state: "CA", sort: "name", type: "" };
    expect(activeFilterCount(values)).toBe(2);
    expect(activeFilterCount({ sort: "rating" })).toBe(0);
    const form = <form aria-label="Search" />;
    const en = render(
      <FiltersDisclosure headingId="filters" activeCount={2}>
        {form}
      </FiltersDisclosure>,
    );
    // Closed in the server's HTML: a phone sees the results first; without JavaScript it still opens.
    expect(en).toMatch(/^<details class="directory-filters[^"]*">/);
    expect(en).not.toMatch(/<details[^>]* open/);
    expect(en).toMatch(/<summary[^>]*><h2 id="filters"[^>]*>Filter the doctors<\/h2>/);
    expect(en).toContain("2 active filters");
    expect(en).toContain('<form aria-label="Search"></form></details>');
    const bg = render(
      <FiltersDisclosure headingId="filters" activeCount={1}>
        {form}
      </FiltersDisclosure>,
      "bg",
    );
    expect(bg).toContain("Филтриране на лекарите");
    expect(bg).toContain("1 активен филтър");
    const none = render(
      <FiltersDisclosure headingId="filters" activeCount={0}>
        {form}
      </FiltersDisclosure>,
    );
    expect(none).not.toContain("active filter");
  });

  it("tell a patient when they can expect to be seen by a provider who is not on duty", () => {
    const offDuty = { ...provider, available_today: false };
    const others = render(<NotOnDutyNote provider={offDuty} othersWait={12} />);
    expect(others).toContain("Ana Petrova is not on duty today.");
    expect(others).toContain("your request waits 5 minutes for Ana Petrova");
    expect(others).toContain("expect to be seen in about 12 minutes");
    // Nobody but the chosen provider may take it in its first minutes: never sooner than that.
    expect(render(<NotOnDutyNote provider={offDuty} othersWait={1} />)).toContain("in about 5 minutes");
    const nobody = render(<NotOnDutyNote provider={offDuty} othersWait={null} />);
    expect(nobody).toContain("no other clinician is on duty right now, so nobody can see you yet");
    expect(nobody).toContain("it expires and any payment for it is refunded");
    const unknown = render(<NotOnDutyNote provider={offDuty} othersWait="unknown" />);
    expect(unknown).toContain("then goes to any clinician on duty");
    expect(unknown).not.toContain("nobody can see you yet");
    expect(others).toContain('href="/find-a-doctor?available_today=true"');
    expect(render(<NotOnDutyNote provider={offDuty} othersWait={12} />, "bg")).toContain(
      "очаквайте да ви приемат след около 12 минути",
    );
  });
});
