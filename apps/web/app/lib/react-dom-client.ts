/**
 * React DOM's client API, re-exported from a module that the browser build puts in React DOM's own
 * chunk (vite.config.ts). React DOM is CommonJS: its code runs when the first ES module importing
 * it runs. Imported from here, that is when its chunk runs, in a task before the client entry's
 * (ADR 013), and not inside the entry's task that starts hydration.
 */
export { hydrateRoot } from "react-dom/client";
