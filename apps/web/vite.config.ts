import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    // Keep every asset a file under /assets: the CSP allows data: images only, and files cache forever.
    assetsInlineLimit: 0,
  },
});
