/**
 * Quoting for the SQL plat writes: identifiers and string literals for the warehouse dialects
 * (DuckDB, Athena/Trino: standard SQL) and identifiers for MySQL sources. Every generated statement
 * quotes through these, so a table or column named like a keyword, or with a quote in it, is safe.
 */

/** `"name"` for DuckDB and Athena (a `"` inside is doubled). */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** `'text'` as a standard SQL string literal (a `'` inside is doubled). */
export const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** `` `name` `` for MySQL (a backtick inside is doubled). */
export const quoteMysqlIdent = (name: string): string => `\`${name.replace(/`/g, '``')}\``;
