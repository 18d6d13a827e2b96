// The operations console (ADR 065): what operators did.
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";

/**
 * Every operator action, append-only: who (the operator's account), what (the action, its target
 * and a small detail: never health data), when and from where (the client's address). A patient's
 * data an operator reads is also written to that patient's own access log (`audit_log`).
 */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    detail: jsonb("detail").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    ip: text("ip"),
    at: timestamptz("at").notNull().defaultNow(),
  },
  (table) => [
    index("operator_actions_at_idx").on(table.at),
    index("operator_actions_actor_at_idx").on(table.actorUserId, table.at),
    index("operator_actions_target_idx")
      .on(table.targetType, table.targetId)
      .where(sql`${table.targetId} is not null`),
  ],
);
