/** Registers plat's custom search attributes on the namespace (an existing cluster may lack them). */
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Logger } from 'pino';
import { PLAT_SEARCH_ATTRIBUTES } from '../shared/search-attributes';

export async function ensureSearchAttributes(
  connection: Connection,
  namespace: string,
  log: Logger,
): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = PLAT_SEARCH_ATTRIBUTES.filter((key) => !(key.name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  await addKeywordSearchAttributes(
    connection,
    namespace,
    missing.map((k) => k.name),
  );
  log.info({ search_attributes: missing.map((k) => k.name) }, 'registered search attributes');
}

/** Adds keyword search attributes (the time-skipping test server supports only this call). */
export async function addKeywordSearchAttributes(
  connection: Connection,
  namespace: string,
  names: string[] = PLAT_SEARCH_ATTRIBUTES.map((k) => k.name),
): Promise<void> {
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      names.map((name) => [name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
}
