import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import routes from "./app/routes.ts";
import { ambercareContent } from "./vite-plugin-content.ts";
import { platformPlugin } from "./vite-plugin-platform.ts";
import { ambercareRouteStrings } from "./vite-plugin-route-strings.ts";

export default defineConfig(() => ({
  // ambercareContent: content/**.md rendered to sanitised HTML at build time (virtual:ambercare/content).
  // platformPlugin: offline pages and the service worker (/sw.js) from the client build (ADR 011).
  // ambercareRouteStrings: which locale strings each route's page uses (ADR 042), found from the source.
  plugins: [
    ambercareContent(),
    ambercareRouteStrings(routes),
    tailwindcss(),
    reactRouter(),
    platformPlugin(),
  ],
  build: {
    // Keep every asset a file under /assets: the CSP allows data: images only, and files cache forever.
    assetsInlineLimit: 0,
  },
}));
