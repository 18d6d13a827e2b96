import { describe, expect, it } from "vitest";
import { CONSOLE_LAYOUT_ID, PAGES, showsSupportWidget } from "#app/lib/pages.ts";

describe("where the patients' support widget shows", () => {
  it("is the console layout's route id: its file without the extension", () => {
    expect(`${CONSOLE_LAYOUT_ID}.tsx`).toBe(PAGES["/console"].layout);
    expect(PAGES["/console/visits/:id"].layout).toBe(PAGES["/console"].layout);
  });

  it("shows on the patients' and public pages, never in the care console", () => {
    expect(showsSupportWidget(["root", "routes/layouts/main", "routes/my-profile/visit"])).toBe(true);
    expect(showsSupportWidget(["root", "routes/layouts/main", "routes/home"])).toBe(true);
    expect(showsSupportWidget(["root", CONSOLE_LAYOUT_ID, "routes/console/visit"])).toBe(false);
    expect(showsSupportWidget(["root", CONSOLE_LAYOUT_ID, "routes/console/index"])).toBe(false);
  });
});
