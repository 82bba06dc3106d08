import { defineConfig } from 'drizzle-kit';

// PostgreSQL migrations from the same schema definition as ./drizzle.config.ts
// (src/pg/schema.ts derives the tables from src/schema/). `pnpm db:generate:pg`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './drizzle-pg.schema.cjs',
  out: './drizzle-pg',
});
