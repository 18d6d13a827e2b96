import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type { ErrorCode } from "@ambercare/contracts/error-codes";
import { type Algorithm, hash, type Options, parseOptions, verify } from "@node-rs/argon2";
import type { Argon2Params } from "#api/platform/argon2-params.ts";

/**
 * Password hashing and the password rules of NIST SP 800-63B: a minimum length (the zod schemas in
 * packages/contracts), no composition rules, and a refusal of passwords that are common or taken
 * from the context (the e-mail address, the service's name).
 */

/** `Algorithm.Argon2id`: the enum is `const` in the typings, which isolatedModules cannot inline. */
const ARGON2ID = 2 as Algorithm;

/** Hashing with one cost (ARGON2_PARAMS); verifying reads the cost from the stored hash. */
export type Passwords = {
  readonly params: Readonly<Argon2Params>;
  hash(password: string): Promise<string>;
  /** True when the hash was made with other parameters than these, so a login should re-hash it. */
  needsRehash(storedHash: string): boolean;
  /** Makes the dummy hash ahead of the first login (app start), so that login is not slower either. */
  prepareDummyHash(): Promise<void>;
  /**
   * Spends the same time as checking a real password. A login for an unknown e-mail calls this, so
   * the answer's timing does not tell whether an account exists.
   */
  verifyDummyPassword(password: string): Promise<false>;
};

export function createPasswords(params: Argon2Params): Passwords {
  const options = Object.freeze({ algorithm: ARGON2ID, ...params } satisfies Options);
  const hashPassword = (password: string) => hash(password, options);
  let dummyHash: Promise<string> | undefined;
  return {
    params: Object.freeze({ ...params }),
    hash: hashPassword,
    needsRehash(storedHash) {
      try {
        const used = parseOptions(storedHash);
        return (
          used.algorithm !== options.algorithm ||
          used.memoryCost !== options.memoryCost ||
          used.timeCost !== options.timeCost ||
          used.parallelism !== options.parallelism
        );
      } catch {
        return true;
      }
    },
    async prepareDummyHash() {
      dummyHash ??= hashPassword(randomBytes(18).toString("base64url"));
      await dummyHash;
    },
    async verifyDummyPassword(password) {
      dummyHash ??= hashPassword(randomBytes(18).toString("base64url"));
      await verifyPassword(await dummyHash, password);
      return false;
    },
  };
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** The shipped list (see the header of common-passwords.txt), lower-cased, read once. */
let commonPasswords: ReadonlySet<string> | undefined;

export function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => line.toLowerCase()),
  );
  return commonPasswords;
}

export type PasswordContext = {
  /** The account's e-mail address, normalised (lower-case). */
  email: string;
  /** PRODUCT_NAME and PRODUCT_SLUG. */
  productNames: readonly string[];
};

/**
 * The message for a password the rules refuse, or null when it is acceptable. Length is checked by
 * the request schema before this runs. Comparisons ignore case, since "Password1" is as easy to
 * guess as "password1".
 */
/** The code of each password rule's refusal. */
export const PASSWORD_PROBLEM_CODES: Readonly<Record<string, ErrorCode>> = {
  [AUTH_ERRORS.passwordTooCommon]: "PASSWORD_TOO_COMMON",
  [AUTH_ERRORS.passwordIsEmail]: "PASSWORD_IS_EMAIL",
  [AUTH_ERRORS.passwordHasProductName]: "PASSWORD_HAS_PRODUCT_NAME",
};

export function passwordProblem(password: string, context: PasswordContext): string | null {
  const lower = password.toLowerCase();
  if (loadCommonPasswords().has(lower)) return AUTH_ERRORS.passwordTooCommon;
  const localPart = context.email.split("@")[0] ?? "";
  if (lower === context.email || lower === localPart) return AUTH_ERRORS.passwordIsEmail;
  const names = context.productNames.map((name) => name.toLowerCase().replaceAll(/\s+/g, ""));
  const squashed = lower.replaceAll(/\s+/g, "");
  if (names.some((name) => name.length > 0 && squashed.includes(name))) {
    return AUTH_ERRORS.passwordHasProductName;
  }
  return null;
}
