/**
 * The rules a refresh schedule keeps (docs/refresh.md#schedules), stated in the API's document so a
 * client knows them before asking: an interval of at least five minutes, or a five-field cron whose
 * minute is one number (so at most hourly), in an IANA time zone. A refresh reads the source, so its
 * pace is a cost the owner chooses within these bounds.
 */

/** An interval the document allows: 5-99999 minutes, or 1-99999 hours or days. */
export const EVERY_PATTERN = /^(?:(?:[5-9]|[1-9][0-9]{1,4})m|[1-9][0-9]{0,4}[hd])$/;

const NUMBERS = '[0-9]{1,2}(?:-[0-9]{1,2})?(?:/[0-9]{1,2})?';
const CRON_FIELD = `(?:\\*(?:/[0-9]{1,2})?|${NUMBERS}(?:,${NUMBERS})*)`;
const NAMES = '[A-Za-z]{3}(?:-[A-Za-z]{3})?(?:,[A-Za-z]{3}(?:-[A-Za-z]{3})?)*';
/**
 * A five-field cron the document allows: the minute one number 0-59 (so at most hourly), the other
 * fields numbers, ranges, steps and lists, month and day of week also by name.
 */
export const CRON_PATTERN = new RegExp(
  `^[0-5]?[0-9] ${CRON_FIELD} ${CRON_FIELD} (?:${CRON_FIELD}|${NAMES}) (?:${CRON_FIELD}|${NAMES})$`,
);

/** The time zones a cron may be read in: the runtime's IANA zones, and UTC. */
export const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone')] as [string, ...string[]];
