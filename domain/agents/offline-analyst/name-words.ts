/**
 * Names in any convention (snake_case, camelCase, PascalCase, UPPER_CASE) as lower-case words, so
 * the analyst reads `order_date`, `orderDate` and `OrderDate` alike.
 */

/** `orderLineNumber` → `['order', 'line', 'number']`; `InvoiceId` → `['invoice', 'id']`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** English singular of one lower-case word: `categories` → `category`, `boxes` → `box`. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The words of a name, each singular: `OrderDetails` → `['order', 'detail']`. */
export const singularWords = (name: string): string[] => nameWords(name).map(singular);

/** A name normalized for comparison across conventions: `customer_id`, `CustomerId`, `customerID` → `customerid`. */
export const normalizedName = (name: string): string => nameWords(name).join('');

/** The table as a noun: `order_items` → `order item`, `InvoiceLine` → `invoice line`. */
export const tableNoun = (table: string): string => singularWords(table).join(' ');

/** A lower-case SQL identifier from any name: `InvoiceLine` → `invoice_line`, `2fa` → `t_2fa`. */
export function identifier(name: string): string {
  const words = nameWords(name).join('_') || 'x';
  return (/^[a-z]/.test(words) ? words : `t_${words}`).slice(0, 63);
}

/** English plural of a noun phrase, for readable descriptions ("distinct customers"). */
export function pluralNoun(noun: string): string {
  const irregular: Record<string, string> = {
    staff: 'staff members',
    inventory: 'inventory items',
    person: 'people',
    stock: 'stock records',
  };
  const words = noun.split(' ');
  const last = words.pop() ?? '';
  const plural =
    irregular[last] ??
    (/[^aeiou]y$/.test(last)
      ? `${last.slice(0, -1)}ies`
      : /(s|x|z|ch|sh)$/.test(last)
        ? `${last}es`
        : `${last}s`);
  return [...words, plural].join(' ');
}
