import type { ConsultationType } from "@ambercare/contracts/provider";
import type { Executor } from "@ambercare/db/client";

/**
 * What creating and canceling a consultation needs to know about payment: whether the patient is a
 * member (trialing or active), and their one-time visit credits. The membership module owns that
 * data and supplies the real implementation; consultations depend on this port only.
 *
 * `consumeVisitCredit` and `returnVisitCredit` run inside the caller's transaction (`tx`), so a
 * consultation that fails to be created gives its credit back by rolling back. `consumeVisitCredit`
 * must take a credit at most once even when two requests race (a row lock or a conditional update),
 * and answer false when there is none.
 */
export interface ConsultationEntitlements {
  isMember(userId: string): Promise<boolean>;
  consumeVisitCredit(tx: Executor, userId: string, type: ConsultationType): Promise<boolean>;
  returnVisitCredit(tx: Executor, userId: string, type: ConsultationType): Promise<void>;
}

/**
 * The answer while no membership module is connected: nobody is a member and nobody holds a
 * credit, so every request is refused with 402. Safe by default: it never gives a visit away.
 */
export const noEntitlements: ConsultationEntitlements = {
  isMember: async () => false,
  consumeVisitCredit: async () => false,
  returnVisitCredit: async () => undefined,
};

export type GrantableEntitlements = ConsultationEntitlements & {
  grant(
    userId: string,
    grant: { member?: boolean; credits?: Partial<Record<ConsultationType, number>> },
  ): void;
  credits(userId: string): Record<ConsultationType, number>;
};

/**
 * Entitlements held in this process's memory, granted by hand: the API tests use it, and so does
 * `POST /dev/entitlements` outside production (end-to-end tests). JavaScript runs one callback at a
 * time, so check-and-decrement cannot interleave; it does not roll back with `tx`, which is why the
 * consultation service consumes a credit as the last step of its transaction.
 */
export function createGrantableEntitlements(): GrantableEntitlements {
  const members = new Set<string>();
  const balances = new Map<string, Record<ConsultationType, number>>();
  const balance = (userId: string) => {
    let entry = balances.get(userId);
    if (!entry) {
      entry = { chat: 0, video: 0 };
      balances.set(userId, entry);
    }
    return entry;
  };
  return {
    async isMember(userId) {
      return members.has(userId);
    },
    async consumeVisitCredit(_tx, userId, type) {
      const entry = balance(userId);
      if (entry[type] < 1) return false;
      entry[type] -= 1;
      return true;
    },
    async returnVisitCredit(_tx, userId, type) {
      balance(userId)[type] += 1;
    },
    grant(userId, grant) {
      if (grant.member === true) members.add(userId);
      if (grant.member === false) members.delete(userId);
      const entry = balance(userId);
      entry.chat += grant.credits?.chat ?? 0;
      entry.video += grant.credits?.video ?? 0;
    },
    credits(userId) {
      return { ...balance(userId) };
    },
  };
}
