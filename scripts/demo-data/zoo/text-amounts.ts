/** Money written as text, the way a spreadsheet or a ledger export leaves it. */

/** `1,234.50` from cents: thousands grouped, two decimals, no currency sign. */
export function groupedAmount(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `${whole}.${String(cents % 100).padStart(2, '0')}`;
}
