/** Sums of a fact's sales by group, for roll-up tables that must reconcile with the fact. */

/** How many sales a group has, their total quantity and their total amount in integer cents. */
export interface SalesSum {
  count: number;
  quantity: number;
  cents: number;
}

/** Group key → its sums, groups in the order first seen. */
export type SalesSums = Map<string, SalesSum>;

/** Counts one sale into its group; cents stay integers, so a roll-up's total equals its rows' sum exactly. */
export function addSale(sums: SalesSums, group: string, quantity: number, cents: number): void {
  const sum = sums.get(group) ?? { count: 0, quantity: 0, cents: 0 };
  sums.set(group, { count: sum.count + 1, quantity: sum.quantity + quantity, cents: sum.cents + cents });
}
