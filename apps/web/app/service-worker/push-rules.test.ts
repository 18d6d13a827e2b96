import { describe, expect, it } from "vitest";
import { readPushMessage, sitePath, tabFor } from "#app/service-worker/push-rules.ts";

const ORIGIN = "https://care.example";

describe("readPushMessage", () => {
  it("shows what the server sent", () => {
    const text = JSON.stringify({
      title: "Ambercare",
      body: "You have an update about your visit.",
      url: "/my-profile/consultations/1",
      tag: "t",
    });
    expect(readPushMessage(text, "Ambercare", "en")).toEqual({
      title: "Ambercare",
      body: "You have an update about your visit.",
      url: "/my-profile/consultations/1",
      tag: "t",
    });
  });

  it("shows the generic line in the person's language for a message it cannot read", () => {
    expect(readPushMessage("not json", "Ambercare", "bg")).toEqual({
      title: "Ambercare",
      body: "Имате новина.",
      url: "/",
      tag: "update",
    });
    expect(readPushMessage(null, "Ambercare", "en").body).toBe("You have an update.");
  });

  it("never opens another site", () => {
    for (const url of [
      "https://evil.example/",
      "//evil.example/x",
      "javascript:alert(1)",
      "/\\evil.example",
      42,
    ])
      expect(sitePath(url)).toBe("/");
    expect(sitePath("/console/visits/9")).toBe("/console/visits/9");
  });
});

describe("tabFor", () => {
  const tab = (url: string, focused = false) => ({ url, focused });

  it("focuses the tab already on the page", () => {
    const onPage = tab(`${ORIGIN}/my-profile/consultations/1?x=1`);
    expect(tabFor([tab(`${ORIGIN}/`), onPage], "/my-profile/consultations/1", ORIGIN)).toEqual({
      tab: onPage,
      navigate: false,
    });
  });

  it("sends another tab of the site to the page, the focused one first, and opens a window when there is none", () => {
    const focused = tab(`${ORIGIN}/pricing`, true);
    expect(tabFor([tab(`${ORIGIN}/`), focused], "/console", ORIGIN)).toEqual({
      tab: focused,
      navigate: true,
    });
    expect(tabFor([tab("https://other.example/console")], "/console", ORIGIN)).toBeNull();
    expect(tabFor([], "/console", ORIGIN)).toBeNull();
  });
});
