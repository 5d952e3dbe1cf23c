/**
 * The guard in front of `query`: one SELECT (or WITH/VALUES) and no database of another project.
 * Athena itself refuses more than one statement per execution. Names in the shared Glue catalog
 * are all visible to the workgroup's role, so the cross-project check is a courtesy, not isolation:
 * that needs IAM or Lake Formation scoping per project.
 */
import { layerNames } from '../../../shared/prd-schema';
import { WarehouseQueryError } from '../warehouse-engine';
import { layerDatabaseName } from '../warehouse-layout';

export class ReadOnlyQueryError extends WarehouseQueryError {
  constructor(message: string) {
    super('read_only', message);
    this.name = 'ReadOnlyQueryError';
  }
}

export function assertReadOnlySelect(sql: string, projectId: string): void {
  const text = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .trim();
  if (!/^(\(\s*)*(select|with|values)\b/i.test(text))
    throw new ReadOnlyQueryError('only SELECT queries are allowed on the warehouse');
  const own = new Set(layerNames.map((layer) => layerDatabaseName(projectId, layer)));
  for (const m of text.matchAll(/\bplat_\w+?_(?:ods|dwd|dws|ads)\b/gi)) {
    if (!own.has(m[0].toLowerCase()))
      throw new ReadOnlyQueryError(`${m[0]} is not a database of project ${projectId}`);
  }
}
