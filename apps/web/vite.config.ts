import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { ambercareContent } from "./vite-plugin-content.ts";
import { platformPlugin } from "./vite-plugin-platform.ts";

export default defineConfig({
  // ambercareContent: content/**.md rendered to sanitised HTML at build time (virtual:ambercare/content).
  // platformPlugin: offline pages and the service worker (/sw.js) from the client build (ADR 011).
  plugins: [ambercareContent(), tailwindcss(), reactRouter(), platformPlugin()],
  build: {
    // Keep every asset a file under /assets: the CSP allows data: images only, and files cache forever.
    assetsInlineLimit: 0,
  },
});
