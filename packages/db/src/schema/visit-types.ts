// The kinds of visit in SQL, from their one list (packages/contracts/src/visit-types.ts, ADR 056).
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { type SQL, sql } from "drizzle-orm";

/**
 * `'chat', 'video'`: the kinds as SQL literals, for the checks that keep a stored kind one of the
 * list's (a new row of the list changes them, and `npm run db:generate` writes the migration).
 * Written into the SQL rather than bound: a check constraint holds no parameters.
 */
export function visitTypeLiterals(ids: readonly string[] = VISIT_TYPE_IDS): SQL {
  for (const id of ids) {
    if (!/^[a-z][a-z_]*$/.test(id)) throw new Error(`A visit type id is lower-case letters: ${id}`);
  }
  return sql.raw(ids.map((id) => `'${id}'`).join(", "));
}
