// Ratings of completed consultations, shown in the directory.
import { sql } from "drizzle-orm";
import { check, index, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";
import { consultations } from "./consultations.ts";
import { providers } from "./directory.ts";

/** A patient's rating of a completed consultation: one per consultation (the unique constraint). */
export const ratings = pgTable(
  "ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    consultationId: uuid("consultation_id")
      .notNull()
      .unique()
      .references(() => consultations.id, { onDelete: "cascade" }),
    stars: smallint("stars").notNull(),
    comment: text("comment"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("ratings_stars_range", sql`${table.stars} between 1 and 5`),
    check("ratings_comment_length", sql`char_length(${table.comment}) <= 1000`),
    index("ratings_provider_id_idx").on(table.providerId),
    index("ratings_user_id_idx").on(table.userId),
  ],
);
