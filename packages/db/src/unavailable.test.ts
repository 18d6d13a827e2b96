import { describe, expect, it } from "vitest";
import { connectionFailure, isDatabaseUnavailable, retryWhileUnavailable } from "./unavailable.ts";

/** A driver error as node-postgres or PGlite builds it, wrapped the way Drizzle wraps it. */
const wrapped = (cause: Error) => new Error("Failed query: select 1\nparams: ", { cause });
const coded = (code: string, message = "failure") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", coded("ECONNREFUSED")],
    ["a reset connection", coded("ECONNRESET")],
    ["an administrator shutdown (57P01)", coded("57P01")],
    ["a server still starting (57P03)", coded("57P03")],
    ["a connection exception (class 08)", coded("08006")],
    ["no connection slot left (53300)", coded("53300")],
    ["the pool's connection timeout", new Error("timeout exceeded when trying to connect")],
    ["a dropped connection", new Error("Connection terminated unexpectedly")],
    ["a closed pool", new Error("Cannot use a pool after calling end on the pool")],
    ["a closed PGlite", new Error("PGlite is closed")],
    ["every address refused", new AggregateError([coded("ECONNREFUSED")], "connect failed")],
    [
      "a Unix socket whose server is down",
      Object.assign(coded("ENOENT", "connect ENOENT /run/postgresql/.s.PGSQL.5432"), { syscall: "connect" }),
    ],
  ])("is true for %s, also inside Drizzle's wrapper", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
  });

  it.each([
    ["a unique violation", coded("23505")],
    ["a syntax error", coded("42601")],
    ["a plain bug", new TypeError("x is undefined")],
    ["a missing file", Object.assign(coded("ENOENT", "no such file"), { syscall: "open" })],
    [
      "a query whose parameters quote a driver message",
      new Error("Failed query: …\nparams: PGlite is closed"),
    ],
    ["no error at all", undefined],
  ])("is false for %s", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("connectionFailure", () => {
  it("is the error when the connection failed, so that the pool ends the client", () => {
    const refused = coded("ECONNREFUSED");
    expect(connectionFailure(wrapped(refused))).toBeInstanceOf(Error);
    expect(connectionFailure(refused)).toBe(refused);
  });

  it("is nothing when only the query failed: the connection goes back to the pool", () => {
    expect(connectionFailure(wrapped(coded("23505")))).toBeUndefined();
    expect(connectionFailure(new TypeError("x is undefined"))).toBeUndefined();
  });
});

describe("retryWhileUnavailable", () => {
  /** A task that fails with each of `failures` in turn, then answers "done". */
  const failingWith = (...failures: unknown[]) => {
    let calls = 0;
    const task = async () => {
      calls += 1;
      if (calls <= failures.length) throw failures[calls - 1];
      return "done";
    };
    return { task, calls: () => calls };
  };

  it("tries again after each failure to reach the database, with growing pauses", async () => {
    const { task, calls } = failingWith(coded("ECONNREFUSED"), wrapped(coded("57P03")), coded("57P01"));
    const pauses: number[] = [];
    const answer = await retryWhileUnavailable(task, {
      waitMs: 5_000,
      minDelayMs: 1,
      maxDelayMs: 3,
      onWait: (_error, delayMs) => pauses.push(delayMs),
    });
    expect(answer).toBe("done");
    expect(calls()).toBe(4);
    expect(pauses).toEqual([1, 2, 3]);
  });

  it("throws any other failure at once", async () => {
    const { task, calls } = failingWith(coded("42601"));
    await expect(retryWhileUnavailable(task, { waitMs: 5_000, minDelayMs: 1 })).rejects.toMatchObject({
      code: "42601",
    });
    expect(calls()).toBe(1);
  });

  it("gives up with the last failure once the outage outlasts the wait", async () => {
    const refusals = Array.from({ length: 1_000 }, () => coded("ECONNREFUSED"));
    const { task, calls } = failingWith(...refusals);
    const started = Date.now();
    await expect(
      retryWhileUnavailable(task, { waitMs: 50, minDelayMs: 5, maxDelayMs: 10 }),
    ).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(calls()).toBeGreaterThan(1);
    expect(calls()).toBeLessThan(20);
  });
});
