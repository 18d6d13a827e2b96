import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";

/** The API is another process: these cases stand in for its failures (it is down, errs, or answers oddly). */
const GOOD = {
  data: [
    {
      id: 1,
      slug: "primary-care",
      name: "Primary Care",
      description: "Everyday health concerns.",
      conditions: [{ slug: "cold-and-flu", name: "Cold & Flu" }],
    },
  ],
};

function answer(status: number, body: unknown): typeof fetch {
  return async () =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("fetchSpecializations (the home page's list)", () => {
  it("returns null rather than failing when the API is down, errs or answers something unexpected", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cases: Array<typeof fetch> = [
      async () => {
        throw new TypeError("fetch failed");
      },
      answer(500, { error: "Internal Server Error" }),
      answer(429, { error: "Too many requests" }),
      answer(200, { data: [{ id: "x" }] }),
      answer(200, "not json at all"),
    ];
    for (const [index, fake] of cases.entries()) {
      vi.stubGlobal("fetch", fake);
      // A different clock per case, so no earlier answer is served from the cache.
      expect(await fetchSpecializations("bg", { now: index * 1e9 }), `case ${index}`).toBeNull();
    }
  });

  it("asks in the visitor's language, returns the list and keeps it for a minute", async () => {
    const fake = vi.fn(answer(200, GOOD));
    vi.stubGlobal("fetch", fake);
    expect(await fetchSpecializations("en", { now: 1_000 })).toEqual(GOOD.data);
    expect(String(fake.mock.calls[0]?.[0])).toMatch(/\/api\/v1\/api\/specialization\?lang=en$/);
    expect(await fetchSpecializations("en", { now: 30_000 })).toEqual(GOOD.data);
    expect(fake).toHaveBeenCalledTimes(1);
    await fetchSpecializations("en", { now: 62_000 });
    expect(fake).toHaveBeenCalledTimes(2);
  });

  it("gives up after its timeout", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("fetch", (_url: unknown, init?: RequestInit) => {
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    });
    const started = Date.now();
    expect(await fetchSpecializations("bg", { now: 9e12, timeoutMs: 50 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
