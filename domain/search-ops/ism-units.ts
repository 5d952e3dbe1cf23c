/**
 * The time and size values ISM policies are written with: durations such as `7d`, `12h`, `30m`
 * (OpenSearch TimeValue units) and sizes such as `40gb` (ByteSizeValue units). Parsed once, so the
 * validator refuses what OpenSearch would refuse and the lifecycle engine compares numbers.
 */

const DURATION_UNITS_MS: Record<string, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

/** `7d` → milliseconds; undefined when it is not a duration OpenSearch accepts. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(text.trim());
  return m ? Number(m[1]) * DURATION_UNITS_MS[m[2]] : undefined;
}

/** `40gb` → bytes; undefined when it is not a size OpenSearch accepts. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(b|kb|mb|gb|tb|pb)$/i.exec(text.trim());
  return m ? Math.floor(Number(m[1]) * SIZE_UNITS[m[2].toLowerCase()]) : undefined;
}

/**
 * A duration as the API's schema states it: at most nine digits (999999999d is still a long in
 * milliseconds), an optional fraction, an OpenSearch time unit.
 */
export const DURATION_PATTERN = /^\d{1,9}(\.\d{1,3})?(nanos|micros|ms|s|m|h|d)$/;

/**
 * A size as the API's schema states it: digits bounded per unit so the bytes fit a long, as
 * OpenSearch's ByteSizeValue requires (999 pb, 999999 tb, … 18 digits of bytes), any letter case.
 */
export const SIZE_PATTERN =
  /^(\d{1,18}(\.\d{1,3})?[bB]|\d{1,15}(\.\d{1,3})?[kK][bB]|\d{1,12}(\.\d{1,3})?[mM][bB]|\d{1,9}(\.\d{1,3})?[gG][bB]|\d{1,6}(\.\d{1,3})?[tT][bB]|\d{1,3}(\.\d{1,3})?[pP][bB])$/;
