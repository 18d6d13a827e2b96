import { randomUUID } from "node:crypto";
import { EXAMPLE_INTAKE } from "@ambercare/contracts/intake-example";
import type { Executor } from "@ambercare/db/client";
import { providerLicenses } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import type { App } from "#api/app.ts";
import { bearer } from "#api/test-support.ts";

/** A state the provider is licensed in (its first licence). */
export async function licensedState(db: Executor, providerId: string): Promise<string> {
  const [licence] = await db
    .select({ state: providerLicenses.state })
    .from(providerLicenses)
    .where(eq(providerLicenses.providerId, providerId))
    .limit(1);
  return licence!.state;
}

/** The patient requests a chat visit in `state` with the example intake changed by `intake`. */
export function requestChat(app: App, accessToken: string, state: string, intake: Record<string, unknown>) {
  return app.inject({
    method: "POST",
    url: "/ambercare/create-consultation",
    headers: bearer(accessToken),
    payload: {
      idempotency_key: randomUUID(),
      type: "chat",
      intake: { ...EXAMPLE_INTAKE, state, ...intake },
      consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    },
  });
}
