/** zod validation at the edge: 400 with one entry per bad field, named by its path. */
import type { z } from 'zod';
import { HttpError } from './http-errors';

/**
 * `body` parsed by `schema`, or an HttpError naming each bad field: 400 `validation_failed` unless
 * the caller says otherwise (422 for rules between fields that the document cannot state).
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  refusal: { status: number; code: string } = { status: 400, code: 'validation_failed' },
): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
    const field =
      [...issue.path.map(String), ...(keys.length === 1 ? keys : [])].join('.') ||
      keys.join(', ') ||
      '(body)';
    return {
      field,
      message:
        issue.code === 'unrecognized_keys'
          ? `unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`
          : issue.message,
    };
  });
  throw new HttpError(
    refusal.status,
    refusal.code,
    details.map((d) => `${d.field}: ${d.message}`).join('; '),
    details,
  );
}
