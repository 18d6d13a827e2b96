import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this file; it never connects to a database.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema.ts",
  out: "./drizzle",
  strict: true,
  verbose: true,
});
