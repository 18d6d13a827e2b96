import { AsyncLocalStorage } from "node:async_hooks";
import { visitorHeaders } from "@ambercare/contracts/visitor";
import { getServiceSecrets } from "#app/lib/env.server.ts";

/**
 * The visitor the web server is answering, for every API call made while it does (ADR 025).
 * server.mjs runs each request inside `runForVisitor(req.ip, …)`; the low-level API client
 * (api-client.server.ts) adds `visitorCallHeaders()` to each call, so the API counts and records the
 * visitor and not the web server, whichever loader, action or helper made the call.
 */
const visitor = new AsyncLocalStorage<string>();

export function runForVisitor<T>(address: string | undefined, run: () => T): T {
  return address ? visitor.run(address, run) : run();
}

/** Runs `run` as the web server itself (its service login), for no visitor. */
export function runAsWebServer<T>(run: () => T): T {
  return visitor.exit(run);
}

/** The address of the visitor being answered, when there is one. */
export function currentVisitor(): string | undefined {
  return visitor.getStore();
}

/** The signed headers naming the current visitor to the API; none outside a visitor's request. */
export function visitorCallHeaders(): Record<string, string> {
  const address = visitor.getStore();
  return address ? visitorHeaders(getServiceSecrets().PUBLIC_API_TOKEN, address) : {};
}
