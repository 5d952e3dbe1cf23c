/**
 * A table being generated: its column definitions (which give both the DDL and the INSERT column
 * list, so the two cannot drift apart) and its rows.
 */
import { ident, insertStatements, type SqlValue } from './sql-literals';

/** Column name → SQL type and options, in table order, e.g. `{ order_id: 'INT NOT NULL' }`. */
export type ColumnDefinitions = Record<string, string>;

/** One generated table; rows are added as objects keyed by column name. */
export class GeneratedTable<C extends ColumnDefinitions = ColumnDefinitions> {
  readonly columnNames: (keyof C & string)[];
  readonly rows: SqlValue[][] = [];

  /**
   * @param name table name, as it will appear in the database
   * @param columns column definitions in order
   * @param constraints table-level clauses: `PRIMARY KEY (...)`, `KEY ...`, `CONSTRAINT ... FOREIGN KEY ...`
   */
  constructor(
    readonly name: string,
    readonly columns: C,
    readonly constraints: string[] = [],
  ) {
    this.columnNames = Object.keys(columns);
  }

  /** Adds a row; every column must be given (NULL explicitly), and no other key. */
  add(row: { [K in keyof C]: SqlValue }): void {
    const values = this.columnNames.map((column) => {
      const value = row[column];
      if (value === undefined) throw new Error(`${this.name}: no value for column ${column}`);
      return value;
    });
    if (Object.keys(row).length !== this.columnNames.length) {
      const extra = Object.keys(row).filter((k) => !(k in this.columns));
      throw new Error(`${this.name}: unknown column(s) ${extra.join(', ')}`);
    }
    this.rows.push(values);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /** `CREATE TABLE` for this table (InnoDB, utf8mb4). */
  createStatement(): string {
    const lines = [
      ...this.columnNames.map((column) => `  ${ident(column)} ${this.columns[column]}`),
      ...this.constraints.map((c) => `  ${c}`),
    ];
    return `CREATE TABLE ${ident(this.name)} (\n${lines.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;
  }

  /** Multi-row INSERT statements holding every row. */
  insertStatements(batchRows?: number): string[] {
    return insertStatements(this.name, this.columnNames, this.rows, batchRows);
  }
}

/**
 * A table of fixed reference data (codes and their labels, a short list of stores), keyed by its
 * first column and filled at once. Its rows come from constant lists, never from the random
 * stream, so filling it before the other tables shifts no generated value.
 */
export function referenceTable<C extends ColumnDefinitions>(
  name: string,
  columns: C,
  rows: readonly { [K in keyof C]: SqlValue }[],
  constraints: string[] = [],
): GeneratedTable<C> {
  const table = new GeneratedTable(name, columns, [
    `PRIMARY KEY (${Object.keys(columns)[0]})`,
    ...constraints,
  ]);
  for (const row of rows) table.add(row);
  return table;
}

/** `CONSTRAINT fk_<table>_<column> FOREIGN KEY …`, onto the parent's column of the same name by default. */
export function foreignKey(table: string, column: string, parent: string, parentColumn = column): string {
  return `CONSTRAINT fk_${table}_${column} FOREIGN KEY (${column}) REFERENCES ${parent} (${parentColumn})`;
}

/**
 * Every table's DDL, then every table's rows, in the order given (parents before children, so
 * declared foreign keys hold at every insert).
 */
export function databaseStatements(
  tables: readonly Pick<GeneratedTable, 'createStatement' | 'insertStatements'>[],
): string[] {
  return [...tables.map((t) => t.createStatement()), ...tables.flatMap((t) => t.insertStatements())];
}
