import type { CaptchaService } from "#api/modules/communications/captcha-service.ts";
import type { JobRunner } from "#api/platform/jobs.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;
export const CAPTCHA_SWEEP_JOB = "communications.captcha-sweep";

/**
 * Deletes used captcha solutions whose challenge has expired (an expired solution is refused as
 * expired anyway, so the row is no longer needed): a recurring job (ADR 060). Idempotent.
 */
export function registerCaptchaSweep(jobs: JobRunner, captcha: CaptchaService): void {
  jobs.every(CAPTCHA_SWEEP_JOB, SWEEP_INTERVAL_MS, () => captcha.sweep());
}
