/**
 * What the visit pages keep in this browser: the chat's unsent messages (localStorage), the
 * clinician's summary draft and whether this tab joined a call (sessionStorage). On a shared
 * computer the next person must not read them: once the page shows no one logged in (after "Log
 * out", the idle timeout, or a session that ended elsewhere) they are removed. Their keys start
 * with one of these prefixes; the features that write them name their keys so.
 */
export const VISIT_STORAGE_PREFIXES = Object.freeze([
  "ambercare.visit-chat.",
  "ambercare.visit-summary.",
  "ambercare.call-joined.",
]);

type KeyStore = Pick<Storage, "length" | "key" | "removeItem">;

/** Removes every visit key from `stores`; answers how many went. A store that refuses is skipped. */
export function forgetVisitStorage(stores: readonly (KeyStore | null)[] = browserStores()): number {
  let removed = 0;
  for (const store of stores) {
    if (!store) continue;
    try {
      const keys: string[] = [];
      for (let index = 0; index < store.length; index++) {
        const key = store.key(index);
        if (key && VISIT_STORAGE_PREFIXES.some((prefix) => key.startsWith(prefix))) keys.push(key);
      }
      for (const key of keys) store.removeItem(key);
      removed += keys.length;
    } catch {
      // Storage switched off: there is nothing kept there either.
    }
  }
  return removed;
}

function browserStores(): (KeyStore | null)[] {
  const open = (name: "localStorage" | "sessionStorage") => {
    try {
      return typeof window === "undefined" ? null : window[name];
    } catch {
      return null;
    }
  };
  return [open("localStorage"), open("sessionStorage")];
}
