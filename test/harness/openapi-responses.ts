/**
 * Holds a response to what an OpenAPI 3.1 document says of it: the schema of the operation's
 * status, with every `$ref` into the document's components, validated by Ajv (JSON Schema 2020-12)
 * in full, so a field the document does not state fails where `additionalProperties: false` says so.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** A validator of responses against `document`. */
export function openApiResponses(
  document: Json,
): (operationId: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document itself is one schema resource, so `#/components/schemas/...` resolves inside it.
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const operations = new Map<string, Json>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>))
    for (const op of Object.values(item) as Json[])
      if (op && typeof op === 'object' && typeof op.operationId === 'string')
        operations.set(op.operationId, op);
  return (operationId, status, body) => {
    const op = operations.get(operationId);
    if (!op) return [`no operation ${operationId} in the document`];
    const response = (op.responses as Record<string, Json>)[String(status)];
    const schema = (response?.content as Record<string, Json> | undefined)?.['application/json']?.schema;
    if (!schema) return [`${operationId} declares no JSON body for ${status}`];
    const validate = ajv.compile({
      $ref: `openapi.json#/paths/${pointerOf(document, op)}/responses/${status}/content/application~1json/schema`,
    });
    return validate(body)
      ? []
      : (validate.errors ?? []).map(
          (e) =>
            `${operationId} ${status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
        );
  };
}

/** The JSON pointer segment of the path item and method that hold `op`. */
function pointerOf(document: Json, op: Json): string {
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>))
    for (const [method, candidate] of Object.entries(item))
      if (candidate === op) return `${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
  throw new Error('operation not in the document');
}
