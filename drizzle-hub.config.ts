import { defineConfig } from 'drizzle-kit';

// The hub's PostgreSQL migrations (the hall's SQLite ones are in drizzle.config.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/hub/db/schema.ts',
  out: './drizzle-hub',
});
