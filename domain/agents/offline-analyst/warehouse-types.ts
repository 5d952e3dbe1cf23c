/** MySQL column types → warehouse (DuckDB / Athena-compatible) types, exact where it matters. */
import type { SourceColumn } from '../../../shared/source-schema';

export function warehouseType(column: SourceColumn): string {
  const unsigned = /unsigned/.test(column.type);
  switch (column.data_type) {
    case 'tinyint':
      return /\(1\)/.test(column.type) ? 'BOOLEAN' : unsigned ? 'SMALLINT' : 'TINYINT';
    case 'smallint':
      return unsigned ? 'INTEGER' : 'SMALLINT';
    case 'mediumint':
    case 'int':
    case 'integer':
      return unsigned ? 'BIGINT' : 'INTEGER';
    case 'bigint':
      return unsigned ? 'UBIGINT' : 'BIGINT';
    case 'decimal':
    case 'numeric': {
      const m = /\((\d+)(?:,(\d+))?\)/.exec(column.type);
      return m ? `DECIMAL(${m[1]},${m[2] ?? 0})` : 'DECIMAL(10,0)';
    }
    case 'float':
      return 'FLOAT';
    case 'double':
    case 'real':
      return 'DOUBLE';
    case 'date':
      return 'DATE';
    case 'datetime':
    case 'timestamp':
      return 'TIMESTAMP';
    case 'time':
      return 'TIME';
    case 'year':
      return 'SMALLINT';
    case 'bit':
      return 'BIGINT';
    case 'json':
      return 'JSON';
    case 'binary':
    case 'varbinary':
    case 'tinyblob':
    case 'blob':
    case 'mediumblob':
    case 'longblob':
      return 'BLOB';
    case 'geometry':
    case 'point':
    case 'linestring':
    case 'polygon':
      return 'VARCHAR'; // WKT
    default:
      return 'VARCHAR'; // char, varchar, text, enum, set
  }
}
