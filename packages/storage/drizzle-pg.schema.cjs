// drizzle-kit's schema entry for PostgreSQL: the tables of src/pg/schema.ts as named
// exports (they are built at run time from the SQLite schema, so no file names them).
module.exports = require('./src/pg/schema.ts').pgTables;
