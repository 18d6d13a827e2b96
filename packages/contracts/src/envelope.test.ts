import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dataEnvelope, errorEnvelope, listEnvelope } from "./envelope.ts";

describe("API envelopes", () => {
  const item = z.object({ id: z.number() });

  it("accepts {data} and rejects extra top-level fields", () => {
    expect(dataEnvelope(item).parse({ data: { id: 1 } })).toEqual({ data: { id: 1 } });
    expect(dataEnvelope(item).safeParse({ data: { id: 1 }, secret: 1 }).success).toBe(false);
  });

  it("needs meta with page, per_page and total on lists", () => {
    const list = listEnvelope(item);
    expect(list.safeParse({ data: [{ id: 1 }], meta: { page: 1, per_page: 20, total: 1 } }).success).toBe(
      true,
    );
    expect(list.safeParse({ data: [{ id: 1 }] }).success).toBe(false);
    expect(list.safeParse({ data: [], meta: { page: 0, per_page: 20, total: 0 } }).success).toBe(false);
  });

  it("needs a non-empty error message", () => {
    expect(errorEnvelope.safeParse({ error: "Invalid access token" }).success).toBe(true);
    expect(errorEnvelope.safeParse({ error: "" }).success).toBe(false);
    expect(errorEnvelope.safeParse({ message: "x" }).success).toBe(false);
  });
});
