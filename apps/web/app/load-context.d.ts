import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request CSP nonce from server.mjs; absent under `react-router dev`. */
    cspNonce?: string;
  }
}
