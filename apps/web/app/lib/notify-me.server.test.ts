import { describe, expect, it } from "vitest";
import { notifyMeAction } from "./notify-me.server.ts";

function post(body: Record<string, string>): Request {
  return new Request("http://localhost/blog", { method: "POST", body: new URLSearchParams(body) });
}

/** `data()` results: the value and the status React Router sends. */
function unwrap(result: unknown): { data: unknown; status: number } {
  const r = result as { data: unknown; init?: { status?: number } | null };
  return { data: r.data, status: r.init?.status ?? 200 };
}

describe("the notify-me action of the soon pages", () => {
  it("says honestly that sign-up for updates is not open yet, for a valid address", async () => {
    expect(unwrap(await notifyMeAction(post({ email: " Ana@Example.com " })))).toEqual({
      data: { status: "notOpenYet" },
      status: 200,
    });
  });

  it("asks for a valid address otherwise", async () => {
    const bodies: Array<Record<string, string>> = [
      {},
      { email: "" },
      { email: "not-an-address" },
      { email: `${"a".repeat(250)}@x.example` },
    ];
    for (const body of bodies) {
      expect(unwrap(await notifyMeAction(post(body)))).toEqual({ data: { status: "invalid" }, status: 400 });
    }
  });
});
