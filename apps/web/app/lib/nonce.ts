import { createContext, useContext } from "react";

/**
 * The per-request CSP nonce (server.mjs makes it, entry.server.tsx provides it). On the client it is
 * empty: browsers hide nonce values from the DOM, and hydration does not need them.
 */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
