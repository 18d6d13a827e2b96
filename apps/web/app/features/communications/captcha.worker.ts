import {
  solveAltcha,
  type WorkerRequest,
  type WorkerResponse,
} from "#app/features/communications/captcha.ts";

/**
 * Solves one ALTCHA challenge off the main thread, so typing and scrolling stay smooth while the
 * proof of work runs. Served from 'self' (the CSP's worker-src). One challenge per worker.
 */
type WorkerScope = {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse): void;
};
// The app's TypeScript setup uses the DOM library; a worker's global scope is typed by hand here.
const scope = self as unknown as WorkerScope;

scope.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  let answer: WorkerResponse;
  try {
    answer = { number: await solveAltcha(event.data.challenge) };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(answer);
};
