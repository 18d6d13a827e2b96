import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import routes from "./app/routes.ts";
import { ambercareContent } from "./vite-plugin-content.ts";
import { platformPlugin } from "./vite-plugin-platform.ts";
import { ambercareRouteStrings } from "./vite-plugin-route-strings.ts";

export default defineConfig(({ isSsrBuild }) => ({
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
    // React DOM (with React and the scheduler it brings along) is a chunk of its own in the browser
    // build, together with lib/react-dom-client.ts, through which the entry imports it: React DOM is
    // CommonJS and runs when the first ES module importing it runs, so it now runs when its chunk
    // does, in a task of its own before the client entry's, which only starts hydration (ADR 013).
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "react-dom",
                  test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]|[\\/]app[\\/]lib[\\/]react-dom-client\.ts$/,
                },
              ],
            },
          },
        },
  },
}));
