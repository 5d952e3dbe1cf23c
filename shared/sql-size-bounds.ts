/**
 * How big a value one call may build from small inputs (docs/security.md#bounded-constants): a
 * padded string, a repeated one, a list of numbers. DuckDB builds such values outside its memory
 * limit (constant folding, string and list vectors), so one short statement could take gigabytes
 * of the process running it. The PRD grammar and the warehouse's SQL guard hold these bounds. Pure.
 */

/** Characters one call may build (`lpad`, `rpad`, `repeat`, a `printf` width). */
export const MAX_BUILT_CHARS = 10_000;
/** Elements one call may build (`range` and `generate_series` as lists, `list_resize`). */
export const MAX_BUILT_ELEMENTS = 10_000;
/** Rows a table function may generate (`range`, `generate_series`, `repeat` in FROM): streamed, so only time. */
export const MAX_GENERATED_ROWS = 10_000_000;

/** Scalar functions that build a value whose size an argument sets: the argument's index and the bound. */
export const SIZED_ARGUMENT: Readonly<Record<string, { index: number; max: number; unit: string }>> = {
  lpad: { index: 1, max: MAX_BUILT_CHARS, unit: 'characters' },
  rpad: { index: 1, max: MAX_BUILT_CHARS, unit: 'characters' },
  repeat: { index: 1, max: MAX_BUILT_CHARS, unit: 'repetitions' },
  list_resize: { index: 1, max: MAX_BUILT_ELEMENTS, unit: 'elements' },
  array_resize: { index: 1, max: MAX_BUILT_ELEMENTS, unit: 'elements' },
};

/** Functions building a run of values from bounds (`range(a, b, step)`): as a list or as rows. */
export const SERIES_FUNCTIONS: ReadonlySet<string> = new Set(['range', 'generate_series']);

/** Widths and precisions a format string asks for (`%0999999d`, `{:>99999}`), each bounded by {@link MAX_BUILT_CHARS}. */
export function formatWidths(format: string): number[] {
  const widths: number[] = [];
  for (const m of format.matchAll(/%[-+ 0#']*(\d*)(?:\.(\d+))?/g))
    widths.push(Number(m[1] || 0), Number(m[2] || 0));
  // A `{:spec}`'s fill may be a digit (`{:0>999}`): every number in the spec counts.
  for (const m of format.matchAll(/\{[^}:]*:([^}]*)\}/g))
    for (const n of m[1].matchAll(/\d+/g)) widths.push(Number(n[0]));
  return widths;
}
