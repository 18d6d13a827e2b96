import { describe, expect, it } from "vitest";
import { escapeLike } from "#api/platform/sql-like.ts";

describe("escapeLike", () => {
  it("makes %, _ and \\ literal and leaves other text as it is", () => {
    expect(escapeLike("50%_off\\now")).toBe("50\\%\\_off\\\\now");
    expect(escapeLike("Иванова O'Brien")).toBe("Иванова O'Brien");
  });
});
