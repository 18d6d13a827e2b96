import { describe, expect, it } from "vitest";
import { EXPECTED_WAIT_REUSE_MS, reusedExpectedWaits } from "#api/modules/care-console/expected-wait.ts";
import { createManualClock } from "#api/platform/clock.ts";

/** A reader that records what it was asked and answers from `table` (absent: no wait). */
function recordingReader(table: Record<string, number>) {
  const asked: string[][] = [];
  let fail = false;
  const read = async (ids: readonly string[]) => {
    asked.push([...ids]);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (fail) throw new Error("database unavailable");
    return new Map(ids.filter((id) => id in table).map((id) => [id, table[id] as number]));
  };
  return { read, asked, table, failNext: (value: boolean) => (fail = value) };
}

describe("the directory's expected waits", () => {
  it("reads each provider's wait at most once per reuse period, the stale ones together", async () => {
    const clock = createManualClock();
    const reader = recordingReader({ a: 5, b: 12 });
    const waits = reusedExpectedWaits(reader.read, clock);
    expect(await waits(["a", "b", "c"])).toEqual(
      new Map([
        ["a", 5],
        ["b", 12],
      ]),
    );
    expect(await waits(["a", "c"])).toEqual(new Map([["a", 5]]));
    expect(reader.asked).toEqual([["a", "b", "c"]]);

    reader.table.a = 7;
    clock.advance(EXPECTED_WAIT_REUSE_MS - 1);
    expect((await waits(["a"])).get("a")).toBe(5);
    clock.advance(1);
    expect(await waits(["a", "d"])).toEqual(new Map([["a", 7]]));
    expect(reader.asked).toEqual([
      ["a", "b", "c"],
      ["a", "d"],
    ]);
  });

  it("lets searches that need a provider being read wait for that read", async () => {
    const clock = createManualClock();
    const reader = recordingReader({ a: 5 });
    const waits = reusedExpectedWaits(reader.read, clock);
    const answers = await Promise.all([waits(["a"]), waits(["a"]), waits(["a", "b"])]);
    expect(answers.map((answer) => answer.get("a"))).toEqual([5, 5, 5]);
    expect(reader.asked).toEqual([["a"], ["b"]]);
  });

  it("fails the searches of a failed read, and reads again on the next", async () => {
    const clock = createManualClock();
    const reader = recordingReader({ a: 5 });
    const waits = reusedExpectedWaits(reader.read, clock);
    reader.failNext(true);
    await expect(waits(["a"])).rejects.toThrow("database unavailable");
    reader.failNext(false);
    expect((await waits(["a"])).get("a")).toBe(5);
    expect(reader.asked).toEqual([["a"], ["a"]]);
  });
});
