import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/components/hydrated.ts";
import type { CaptchaToken } from "#app/features/communications/captcha.client.ts";
import { CAPTCHA_FIELD } from "#app/features/communications/captcha.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * The captcha of a protected form (ADR 017): put it inside the <form>. It fills a hidden
 * `captcha` input before the form is sent:
 *
 * - ALTCHA (default): the proof of work starts when the form mounts (`start="mount"`) or when the
 *   visitor first focuses a field of it (`start="interaction"`, for the footer form on every page),
 *   runs in a Web Worker and says so in a polite live region ("Verifying you are human…").
 * - reCAPTCHA v3 (when the API says so): Google's script loads on the first need only.
 * - A submission before the value is ready waits for it, then goes on by itself. Each value is sent
 *   once (the API refuses a replay); the next submission gets a fresh one.
 * - Without JavaScript the form says that it needs JavaScript; if sent anyway, the server answers
 *   with the captcha message and the page keeps what was typed.
 */

/** How long a value may wait before it is sent: reCAPTCHA tokens live 2 minutes. */
const MAX_AGE_MS: Record<CaptchaToken["provider"], number> = { recaptcha: 90_000, altcha: 5 * 60_000 };

type Status = "idle" | "working" | "ready" | "failed";

export function CaptchaField({
  action,
  start = "mount",
}: {
  /** Names the form for reCAPTCHA's score ("contact", "sign_up"…). */
  action: string;
  start?: "mount" | "interaction";
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<Status>("idle");
  // Controlled: React would otherwise reset a hidden input's value to its default on re-render.
  const [value, setValue] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const token = useRef<(CaptchaToken & { at: number }) | null>(null);
  const running = useRef<{ controller: AbortController; promise: Promise<boolean> } | null>(null);

  const prepare = useCallback((): Promise<boolean> => {
    if (running.current) return running.current.promise;
    const controller = new AbortController();
    setStatus("working");
    const promise = import("#app/features/communications/captcha.client.ts")
      .then(({ obtainCaptcha }) => obtainCaptcha(action, controller.signal))
      .then(
        (value) => {
          token.current = { ...value, at: Date.now() };
          // Also on the element at once: a held submission is sent before React renders again.
          if (input.current) input.current.value = value.value;
          setValue(value.value);
          setStatus("ready");
          return true;
        },
        () => {
          if (controller.signal.aborted) return false;
          running.current = null;
          setStatus("failed");
          return false;
        },
      );
    running.current = { controller, promise };
    return promise;
  }, [action]);

  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    let sendAsIs = false;

    const fresh = () => {
      const current = token.current;
      return current !== null && Date.now() - current.at < MAX_AGE_MS[current.provider];
    };
    const spend = () => {
      token.current = null;
      running.current = null;
      // Read by the submission already (FormData is built synchronously); cleared right after.
      setTimeout(() => {
        if (token.current !== null) return;
        if (input.current) input.current.value = "";
        setValue("");
        setStatus("idle");
      }, 0);
    };
    const onSubmit = (event: SubmitEvent) => {
      if (sendAsIs || fresh()) {
        sendAsIs = false;
        spend();
        return;
      }
      // Hold the submission (React Router's handler listens further up) until the value is ready.
      event.preventDefault();
      event.stopPropagation();
      const submitter = event.submitter;
      if (token.current) {
        token.current = null;
        running.current = null;
      }
      void prepare().then(() => {
        // Sent even when verification failed: the server's answer says what is needed, nothing is lost.
        sendAsIs = true;
        form.requestSubmit(
          submitter instanceof HTMLElement && submitter.closest("form") === form ? submitter : null,
        );
      });
    };
    const onFocus = () => {
      if (!running.current) void prepare();
    };
    form.addEventListener("submit", onSubmit);
    if (start === "interaction") form.addEventListener("focusin", onFocus);
    else void prepare();
    return () => {
      form.removeEventListener("submit", onSubmit);
      form.removeEventListener("focusin", onFocus);
      running.current?.controller.abort();
      running.current = null;
    };
  }, [prepare, start]);

  const message =
    status === "working"
      ? t("captcha.working")
      : status === "ready"
        ? t("captcha.ready")
        : status === "failed"
          ? t("captcha.failed")
          : "";

  return (
    <div className="flex flex-col gap-2 text-sm">
      <input ref={input} type="hidden" name={CAPTCHA_FIELD} value={value} />
      <p role="status" className={status === "failed" ? "font-semibold text-danger" : "text-ink-muted"}>
        {message}
      </p>
      {status === "failed" ? (
        <div>
          <button type="button" className="button-secondary px-3 text-sm" onClick={() => void prepare()}>
            {t("captcha.retry")}
          </button>
        </div>
      ) : null}
      {hydrated ? null : <p className="text-ink-muted">{t("captcha.needsJavaScript")}</p>}
    </div>
  );
}
