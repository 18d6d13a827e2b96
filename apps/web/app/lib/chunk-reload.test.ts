import { CHUNK_RELOAD_MIN_INTERVAL_MS } from "@ambercare/contracts/timing";
import { describe, expect, it, vi } from "vitest";
import {
  CHUNK_RELOAD_STORAGE_KEY,
  ChunkLoadError,
  claimChunkReload,
  decideChunkReload,
  guardRouteModules,
  parseChunkReloadRecords,
} from "#app/lib/chunk-reload.ts";

const T0 = 1_800_000_000_000;

describe("decideChunkReload (at most once per 10 s for the same path)", () => {
  it("reloads the first time and remembers when", () => {
    expect(decideChunkReload({}, "/membership", T0)).toEqual({
      reload: true,
      records: { "/membership": T0 },
    });
  });

  it.each([
    [1, false],
    [CHUNK_RELOAD_MIN_INTERVAL_MS - 1, false],
    [CHUNK_RELOAD_MIN_INTERVAL_MS, true],
    [CHUNK_RELOAD_MIN_INTERVAL_MS + 1, true],
  ])("a second failure %s ms later reloads: %s", (later, reload) => {
    const first = decideChunkReload({}, "/membership", T0);
    const second = decideChunkReload(first.records, "/membership", T0 + later);
    expect(second.reload).toBe(reload);
    expect(second.records["/membership"]).toBe(reload ? T0 + later : T0);
  });

  it("counts each path on its own", () => {
    const first = decideChunkReload({}, "/membership", T0);
    expect(decideChunkReload(first.records, "/login", T0 + 1).reload).toBe(true);
  });

  it("drops records older than the interval and records from the future", () => {
    const { records } = decideChunkReload(
      { "/old": T0 - CHUNK_RELOAD_MIN_INTERVAL_MS, "/recent": T0 - 5, "/future": T0 + 60_000 },
      "/now",
      T0,
    );
    expect(records).toEqual({ "/recent": T0 - 5, "/now": T0 });
  });
});

describe("parseChunkReloadRecords", () => {
  it.each([null, "", "not json", "[1,2]", "null", "42"])("reads %j as no records", (raw) => {
    expect(parseChunkReloadRecords(raw)).toEqual({});
  });

  it("keeps only numeric entries", () => {
    expect(parseChunkReloadRecords(JSON.stringify({ "/a": 5, "/b": "x" }))).toEqual({ "/a": 5 });
  });
});

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      values.set(key, value);
    },
  };
}

describe("claimChunkReload", () => {
  it("stores the reload in the session so the reloaded page knows about it", () => {
    const storage = memoryStorage();
    expect(claimChunkReload(storage, "/membership", T0)).toBe(true);
    expect(JSON.parse(storage.values.get(CHUNK_RELOAD_STORAGE_KEY) ?? "")).toEqual({ "/membership": T0 });
    expect(claimChunkReload(storage, "/membership", T0 + 2_000)).toBe(false);
    expect(claimChunkReload(storage, "/membership", T0 + CHUNK_RELOAD_MIN_INTERVAL_MS)).toBe(true);
  });

  it("never reloads when the session storage is missing or fails (it could loop)", () => {
    expect(claimChunkReload(undefined, "/", T0)).toBe(false);
    const failing = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(claimChunkReload(failing, "/", T0)).toBe(false);
  });
});

describe("guardRouteModules", () => {
  const ok = `data:text/javascript,${encodeURIComponent("export default function Page() {}; export const handle = 1;")}`;
  const missing = "file:///no/such/route-module-chunk.js";

  function Boundary() {
    return null;
  }

  function setup(onError: () => boolean) {
    const rootModule = { default: () => null };
    const win = {
      __reactRouterRouteModules: { root: rootModule } as Record<string, unknown>,
      __reactRouterManifest: {
        routes: {
          root: { module: "/root.js" },
          "routes/ok": { module: ok },
          "routes/gone": { module: missing },
        },
      },
    };
    guardRouteModules(win as unknown as Window, { onError, ErrorBoundary: Boundary });
    return { win, modules: win.__reactRouterRouteModules, rootModule };
  }

  it("leaves loaded modules and unknown ids as they were", () => {
    const { modules, rootModule } = setup(() => false);
    expect("root" in modules).toBe(true);
    expect(modules.root).toBe(rootModule);
    expect("routes/unknown" in modules).toBe(false);
    expect(modules["routes/unknown"]).toBeUndefined();
  });

  it("loads a route module itself and caches it, as React Router's loader expects", async () => {
    const { modules } = setup(() => false);
    expect("routes/ok" in modules).toBe(true);
    const loaded = (await modules["routes/ok"]) as { handle: number };
    expect(loaded.handle).toBe(1);
    expect(modules["routes/ok"]).toBe(loaded);
  });

  it("hands a failed load to onError; without a reload the route's component throws (error boundary)", async () => {
    const onError = vi.fn(() => false);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { modules } = setup(onError);
    expect("routes/gone" in modules).toBe(true);
    const substitute = (await modules["routes/gone"]) as { default: () => unknown; ErrorBoundary: unknown };
    expect(() => substitute.default()).toThrow(ChunkLoadError);
    expect(substitute.ErrorBoundary).toBe(Boundary);
    expect(onError).toHaveBeenCalledTimes(1);
    expect("routes/gone" in Object.fromEntries(Object.entries(modules))).toBe(false);
    consoleError.mockRestore();
  });

  it("keeps the navigation waiting while the page reloads", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { modules } = setup(() => true);
    expect("routes/gone" in modules).toBe(true);
    const outcome = await Promise.race([
      (modules["routes/gone"] as Promise<unknown>).then(() => "settled"),
      new Promise((resolve) => setTimeout(() => resolve("pending"), 200)),
    ]);
    expect(outcome).toBe("pending");
    consoleError.mockRestore();
  });
});
