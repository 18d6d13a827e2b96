import { getPriority } from "node:os";
import { verify } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { hashOffThread, verifyOffThread } from "#api/modules/accounts/hash-pool.ts";

const CHEAP = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

describe("the password hashing threads", () => {
  it("hash and verify with argon2id as the library does, many at once, in order of their answers", async () => {
    const passwords = Array.from({ length: 12 }, (_, i) => `correct horse ${i}`);
    const hashes = await Promise.all(passwords.map((password) => hashOffThread(password, CHEAP)));
    for (const [i, hashed] of hashes.entries()) {
      expect(hashed).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
      expect(await verify(hashed, passwords[i]!)).toBe(true);
    }
    const checks = await Promise.all(
      hashes.map((hashed, i) => verifyOffThread(hashed, i % 2 === 0 ? passwords[i]! : "wrong")),
    );
    expect(checks).toEqual(hashes.map((_, i) => i % 2 === 0));
  });

  it("refuse a stored value that is no argon2 hash, and keep working after it", async () => {
    await expect(verifyOffThread("not a hash", "x")).rejects.toThrow();
    expect(await verifyOffThread(await hashOffThread("again", CHEAP), "again")).toBe(true);
  });

  it("lower their own priority only, never the process's requests", async () => {
    const before = getPriority(0);
    await hashOffThread("priority", CHEAP);
    expect(getPriority(0)).toBe(before);
  });
});
