import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request CSP nonce from server.mjs; absent under `react-router dev`. */
    cspNonce?: string;
    /**
     * The visitor's address (`req.ip` in server.mjs). Every API call names it (signed,
     * lib/visitor.server.ts) so the API's limits count per visitor. Absent under `react-router dev`.
     */
    clientIp?: string;
    /** The build id server.mjs serves at /build-id.json (BUILD_ID, else the build's manifest version). */
    buildId?: string;
  }
}
