/**
 * The cost of password hashing (ARGON2_PARAMS), apart from the hashing itself
 * (modules/accounts/passwords.ts) so that the configuration can check it.
 */

/** The cost of an argon2id hash: memory in KiB, passes, lanes (the `m`, `t` and `p` of its string). */
export type Argon2Params = { memoryCost: number; timeCost: number; parallelism: number };

/**
 * OWASP Password Storage Cheat Sheet, first argon2id line: 19 MiB of memory, 2 passes, 1 lane
 * (about 60 ms on this project's 2-core reference machine). ARGON2_PARAMS defaults to it.
 */
export const PRODUCTION_ARGON2_PARAMS: Readonly<Argon2Params> = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/**
 * The cheap cost the test suites and browser journeys hash with (under a millisecond instead of about
 * 60 ms; every registration, login and password change of a test hashes). What they check does not depend on the cost, and
 * config.ts refuses it in production.
 */
export const TEST_ARGON2_PARAMS = "m=64,t=1,p=1";

/**
 * The OWASP argon2id lines, each as strong as the others (more memory or more passes); parameters
 * at least as costly as one of them are strong enough for production.
 */
const OWASP_ARGON2_LINES: readonly Pick<Argon2Params, "memoryCost" | "timeCost">[] = [
  { memoryCost: 47_104, timeCost: 1 },
  { memoryCost: 19_456, timeCost: 2 },
  { memoryCost: 12_288, timeCost: 3 },
  { memoryCost: 9_216, timeCost: 4 },
  { memoryCost: 7_168, timeCost: 5 },
];

export function meetsOwaspMinimum(params: Argon2Params): boolean {
  return OWASP_ARGON2_LINES.some(
    (line) => params.memoryCost >= line.memoryCost && params.timeCost >= line.timeCost,
  );
}

/** `m=19456,t=2,p=1` (as in an argon2 hash string) → parameters; null when it is not that. */
export function parseArgon2Params(text: string): Argon2Params | null {
  const match = /^m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [memoryCost, timeCost, parallelism] = match.slice(1).map(Number) as [number, number, number];
  // argon2's own limits: at least one pass and one lane, and 8 KiB of memory per lane.
  if (timeCost < 1 || parallelism < 1 || memoryCost < 8 * parallelism) return null;
  return { memoryCost, timeCost, parallelism };
}
