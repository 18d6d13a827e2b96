import type { Executor } from "@ambercare/db/client";
import { users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";

/**
 * Where a patient's e-mails go and how they read: address, first name for the greeting, language,
 * and the time zone their dates are written in (null until known).
 */
export async function mailRecipient(db: Executor, userId: string) {
  const [row] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      locale: users.locale,
      timeZone: users.timeZone,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
