/** What is true of the demo retailer's database, for tests of the analyst and the warehouse. */
import { columnsOf, datedFact, type SchemaTruth } from '../generated-database';

export const DEMO_STORE_TRUTH: SchemaTruth = {
  industry: 'retail',
  facts: [
    datedFact('orders', 'order_date', 'instant'),
    {
      table: 'order_items',
      event_date_sql:
        'SELECT DATE(o.order_date) AS d FROM order_items i JOIN orders o ON o.order_id = i.order_id',
      event_time_column: 'orders.order_date',
      revenue_sql: 'SELECT SUM(quantity * unit_price * (1 - discount)) AS revenue FROM order_items',
    },
    {
      ...datedFact('payments', 'paid_at', 'instant'),
      revenue_sql: 'SELECT SUM(amount) AS revenue FROM payments',
    },
    datedFact('shipments', 'shipped_at', 'instant'),
    datedFact('returns', 'returned_at', 'instant'),
  ],
  never_aggregate: [
    ...columnsOf('countries', 'country_id'),
    ...columnsOf('regions', 'region_id', 'country_id'),
    ...columnsOf('stores', 'store_id', 'region_id'),
    ...columnsOf('employees', 'employee_id', 'store_id', 'manager_id'),
    ...columnsOf('customers', 'customer_id', 'country_id', 'loyalty_member'),
    ...columnsOf('product_categories', 'category_id', 'parent_category_id'),
    ...columnsOf('suppliers', 'supplier_id', 'country_id'),
    ...columnsOf('products', 'product_id', 'category_id', 'supplier_id', 'is_active'),
    ...columnsOf('orders', 'order_id', 'customer_id', 'store_id', 'employee_id'),
    ...columnsOf('order_items', 'order_id', 'line_number', 'product_id'),
    ...columnsOf('payments', 'payment_id', 'order_id'),
    ...columnsOf('shipments', 'shipment_id', 'order_id'),
    ...columnsOf('returns', 'return_id', 'order_id', 'line_number'),
  ],
  roles: {
    orders: 'header',
    order_items: 'line',
    payments: 'event',
    shipments: 'event',
    returns: 'event',
    customers: 'dimension',
    products: 'dimension',
    stores: 'dimension',
    employees: 'dimension',
    suppliers: 'dimension',
    product_categories: 'dimension',
    regions: 'dimension',
    return_reasons: 'lookup',
  },
};
