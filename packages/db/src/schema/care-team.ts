// The care team: which directory provider a clinician account works as (ADR 035).
import { pgTable, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";
import { providers } from "./directory.ts";

/**
 * Clinician accounts: each links one account (role "clinician") to the one directory provider it
 * works as, and each provider has at most one account. The clinician's licences and visit types are
 * the provider's. `disabled_at` ends the account's access (its sessions are revoked, its logins
 * refused) while keeping who did what in the audit log.
 */
export const clinicians = pgTable("clinicians", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  providerId: uuid("provider_id")
    .notNull()
    .unique()
    .references(() => providers.id, { onDelete: "restrict" }),
  disabledAt: timestamptz("disabled_at"),
  /**
   * When the clinician went on duty in the console; null while off duty. "Available today" of
   * their provider in the directory reads it instead of the provider's seeded flag.
   */
  onDutySince: timestamptz("on_duty_since"),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
});
