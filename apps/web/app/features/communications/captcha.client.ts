import {
  type AltchaChallenge,
  CAPTCHA_CHALLENGE_PATH,
  encodeAltchaSolution,
  readChallenge,
  solveAltcha,
  type WorkerResponse,
} from "#app/features/communications/captcha.ts";

/**
 * Gets a `captcha` value for one submission: asks the web server for a challenge, then either
 * solves ALTCHA's proof of work in a Web Worker (on the main thread in small batches if a worker
 * cannot start) or asks Google's reCAPTCHA v3 for a token, loading Google's script only then.
 */

export type CaptchaProvider = "altcha" | "recaptcha";
export type CaptchaToken = { value: string; provider: CaptchaProvider };

/** Solves on the main thread, yielding to the page between batches. */
function solveHere(challenge: AltchaChallenge, signal: AbortSignal): Promise<number | null> {
  return solveAltcha(challenge, {
    signal,
    betweenBatches: () => new Promise((resolve) => setTimeout(resolve, 0)),
  });
}

function solveInWorker(challenge: AltchaChallenge, signal: AbortSignal): Promise<number | null> {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./captcha.worker.ts", import.meta.url), { type: "module" });
  } catch {
    return solveHere(challenge, signal);
  }
  return new Promise((resolve, reject) => {
    const stop = () => {
      worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      signal.removeEventListener("abort", stop);
      worker.terminate();
      if ("error" in event.data) reject(new Error(event.data.error));
      else resolve(event.data.number);
    };
    // The worker script did not load (blocked, offline…): do the work here instead.
    worker.onerror = (event) => {
      event.preventDefault();
      signal.removeEventListener("abort", stop);
      worker.terminate();
      solveHere(challenge, signal).then(resolve, reject);
    };
    worker.postMessage({ challenge });
  });
}

type Grecaptcha = {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
};

let recaptchaLoading: Promise<Grecaptcha> | null = null;

/** Loads Google's reCAPTCHA v3 script once, with this page's CSP nonce. */
function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  recaptchaLoading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    // Browsers hide the nonce attribute but keep the property: reuse the one React Router's scripts carry.
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const grecaptcha = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (!grecaptcha) reject(new Error("reCAPTCHA did not start"));
      else grecaptcha.ready(() => resolve(grecaptcha));
    };
    script.onerror = () => {
      recaptchaLoading = null;
      reject(new Error("reCAPTCHA could not load"));
    };
    document.head.append(script);
  });
  return recaptchaLoading;
}

/** reCAPTCHA action names allow letters, slashes and underscores only. */
function recaptchaAction(action: string): string {
  return action.replace(/[^A-Za-z/_]/g, "_");
}

/** A fresh captcha value for the form named by `action` ("contact", "sign_up"…). */
export async function obtainCaptcha(action: string, signal: AbortSignal): Promise<CaptchaToken> {
  const response = await fetch(CAPTCHA_CHALLENGE_PATH, {
    signal,
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`captcha challenge: HTTP ${response.status}`);
  const challenge = readChallenge(await response.json());
  if (challenge.provider === "recaptcha") {
    const grecaptcha = await loadRecaptcha(challenge.site_key);
    return {
      provider: "recaptcha",
      value: await grecaptcha.execute(challenge.site_key, { action: recaptchaAction(action) }),
    };
  }
  const number = await solveInWorker(challenge.challenge, signal);
  if (number === null) throw new Error("captcha challenge has no solution");
  return { provider: "altcha", value: encodeAltchaSolution(challenge.challenge, number) };
}
