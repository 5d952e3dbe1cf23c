/** What the product-manager agent learns about a source database (plain data, workflow-safe). */

export interface SourceColumn {
  name: string;
  /** MySQL column type as declared, e.g. `decimal(5,2)`, `enum('G','PG')`, `smallint unsigned`. */
  type: string;
  /** MySQL data type without size, e.g. `decimal`, `enum`, `smallint`. */
  data_type: string;
  nullable: boolean;
  key: 'PRI' | 'UNI' | 'MUL' | '';
  comment?: string;
}

export interface SourceForeignKey {
  columns: string[];
  references_table: string;
  references_columns: string[];
}

export interface SourceTable {
  name: string;
  row_count: number;
  columns: SourceColumn[];
  primary_key: string[];
  foreign_keys: SourceForeignKey[];
  /** A few rows, values rendered as short strings (binary as `<n bytes>`). */
  sample_rows: Record<string, string | null>[];
}

export interface SourceSnapshot {
  database: string;
  server_version: string;
  tables: SourceTable[];
  views: string[];
}
