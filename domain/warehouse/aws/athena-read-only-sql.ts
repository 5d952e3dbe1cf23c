/**
 * The guard in front of Athena `query` (docs/security.md#athena): one SELECT, read by DuckDB's own
 * parser rather than by patterns, that names no database but the project's own layers and calls no
 * table function, with no comment (Athena nests them otherwise) and no SHOW or DESCRIBE. Names in the shared
 * Glue catalog are all visible to the workgroup's role, so isolation between projects needs IAM or
 * Lake Formation scoping per project; this guard keeps honest queries in their project and refuses
 * the rest before Athena sees them.
 */
import { layerNames } from '../../../shared/prd-schema';
import { WarehouseQueryError } from '../warehouse-engine';
import { layerDatabaseName } from '../warehouse-layout';
import { sqlSyntaxTree, syntaxNodes } from '../sql-syntax-tree';

export class ReadOnlyQueryError extends WarehouseQueryError {
  constructor(message: string) {
    super('read_only', message);
    this.name = 'ReadOnlyQueryError';
  }
}

/** Athena's catalog name for Glue; a query may name it or leave it out. */
const GLUE_CATALOG = 'awsdatacatalog';

/** Resolves when `sql` is one SELECT on the project's own databases; throws why otherwise. */
export async function assertReadOnlySelect(sql: string, projectId: string): Promise<void> {
  // Athena reads comments otherwise than DuckDB's parser (`/* /* */` nests in one, not the other):
  // a comment could hide a name from this check and show it to Athena. Refused anywhere, strings
  // included, so no scanner has to agree with Athena's on where a string ends.
  if (/--|\/\*/.test(sql))
    throw new ReadOnlyQueryError(
      'comments (-- and /*) are not allowed in Athena queries, not even inside a string (write chr(45) for -)',
    );
  const tree = await sqlSyntaxTree(sql.trim().replace(/;\s*$/, ''));
  if (tree.error) {
    if (/only select/i.test(tree.error_message))
      throw new ReadOnlyQueryError('only SELECT queries are allowed on the warehouse');
    throw new WarehouseQueryError('invalid_sql', tree.error_message.split('\n')[0]);
  }
  if (tree.statements.length !== 1) throw new ReadOnlyQueryError('one statement at a time');
  const own = new Set(layerNames.map((layer) => layerDatabaseName(projectId, layer)));
  for (const node of syntaxNodes(tree.statements)) {
    if (node.type === 'TABLE_FUNCTION')
      throw new ReadOnlyQueryError('table functions are not allowed on the warehouse');
    // SHOW, DESCRIBE and SUMMARIZE name a database the checks below never see as a table.
    if (node.type === 'SHOW_REF')
      throw new ReadOnlyQueryError(
        "SHOW and DESCRIBE are not allowed on Athena: the project's catalog lists its tables (GET /v1/projects/{id}/catalog)",
      );
    if (node.type !== 'BASE_TABLE') continue;
    const catalog = String(node.catalog_name ?? '').toLowerCase();
    const schema = String(node.schema_name ?? '').toLowerCase();
    if (catalog && catalog !== GLUE_CATALOG)
      throw new ReadOnlyQueryError(`${catalog} is not a catalog of project ${projectId}`);
    if (schema && !own.has(schema))
      throw new ReadOnlyQueryError(`${schema} is not a database of project ${projectId}`);
  }
}
