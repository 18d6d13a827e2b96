import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { CaptchaService } from "#api/modules/communications/captcha-service.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;

/**
 * Deletes used captcha solutions whose challenge has expired (an expired solution is refused as
 * expired anyway, so the row is no longer needed). Idempotent: every instance may sweep.
 */
export const captchaSweepPlugin = fp(
  async (app: FastifyInstance, { captcha }: { captcha: CaptchaService }) => {
    const sweep = setInterval(() => {
      captcha.sweep().then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error }, "captcha sweep failed"),
      );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-captcha-sweep" },
);
