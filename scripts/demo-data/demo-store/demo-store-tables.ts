/**
 * The demo retailer's schema: snake_case, declared foreign keys, a `last_update` audit TIMESTAMP on
 * most tables (maintained by the database on change; never the business date).
 */
import { GeneratedTable, referenceTable } from '../table-builder';
import { RETURN_REASONS } from './reference-data';

const AUDIT = 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP';

/** Creates the tables, parents before children: empty, but for the fixed list of return reasons. */
export function createDemoStoreTables() {
  const countries = new GeneratedTable(
    'countries',
    {
      country_id: 'SMALLINT UNSIGNED NOT NULL',
      country_code: 'CHAR(2) NOT NULL',
      name: 'VARCHAR(60) NOT NULL',
      last_update: AUDIT,
    },
    ['PRIMARY KEY (country_id)', 'UNIQUE KEY uq_countries_code (country_code)'],
  );
  const regions = new GeneratedTable(
    'regions',
    {
      region_id: 'SMALLINT UNSIGNED NOT NULL',
      country_id: 'SMALLINT UNSIGNED NOT NULL',
      region_code: 'VARCHAR(3) NOT NULL',
      name: 'VARCHAR(60) NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (region_id)',
      'CONSTRAINT fk_regions_country FOREIGN KEY (country_id) REFERENCES countries (country_id)',
    ],
  );
  const stores = new GeneratedTable(
    'stores',
    {
      store_id: 'SMALLINT UNSIGNED NOT NULL',
      store_name: 'VARCHAR(60) NOT NULL',
      store_type: "ENUM('flagship','standard','outlet','online') NOT NULL",
      region_id: 'SMALLINT UNSIGNED NOT NULL',
      city: 'VARCHAR(60) NOT NULL',
      street_address: 'VARCHAR(100) NOT NULL',
      phone: 'VARCHAR(20) NOT NULL',
      opened_on: 'DATE NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (store_id)',
      'CONSTRAINT fk_stores_region FOREIGN KEY (region_id) REFERENCES regions (region_id)',
    ],
  );
  const employees = new GeneratedTable(
    'employees',
    {
      employee_id: 'INT UNSIGNED NOT NULL',
      store_id: 'SMALLINT UNSIGNED NOT NULL',
      manager_id: 'INT UNSIGNED NULL',
      first_name: 'VARCHAR(45) NOT NULL',
      last_name: 'VARCHAR(45) NOT NULL',
      email: 'VARCHAR(100) NOT NULL',
      job_title: 'VARCHAR(40) NOT NULL',
      birth_date: 'DATE NOT NULL',
      hire_date: 'DATE NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (employee_id)',
      'CONSTRAINT fk_employees_store FOREIGN KEY (store_id) REFERENCES stores (store_id)',
      'CONSTRAINT fk_employees_manager FOREIGN KEY (manager_id) REFERENCES employees (employee_id)',
    ],
  );
  const customers = new GeneratedTable(
    'customers',
    {
      customer_id: 'INT UNSIGNED NOT NULL',
      first_name: 'VARCHAR(45) NOT NULL',
      last_name: 'VARCHAR(45) NOT NULL',
      email: 'VARCHAR(100) NOT NULL',
      phone: 'VARCHAR(20) NULL',
      city: 'VARCHAR(60) NOT NULL',
      postal_code: 'VARCHAR(10) NOT NULL',
      country_id: 'SMALLINT UNSIGNED NOT NULL',
      loyalty_member: 'TINYINT(1) NOT NULL DEFAULT 0',
      created_at: 'DATETIME NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (customer_id)',
      'UNIQUE KEY uq_customers_email (email)',
      'CONSTRAINT fk_customers_country FOREIGN KEY (country_id) REFERENCES countries (country_id)',
    ],
  );
  const productCategories = new GeneratedTable(
    'product_categories',
    {
      category_id: 'SMALLINT UNSIGNED NOT NULL',
      parent_category_id: 'SMALLINT UNSIGNED NULL',
      name: 'VARCHAR(60) NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (category_id)',
      'CONSTRAINT fk_categories_parent FOREIGN KEY (parent_category_id) REFERENCES product_categories (category_id)',
    ],
  );
  const suppliers = new GeneratedTable(
    'suppliers',
    {
      supplier_id: 'SMALLINT UNSIGNED NOT NULL',
      supplier_name: 'VARCHAR(80) NOT NULL',
      country_id: 'SMALLINT UNSIGNED NOT NULL',
      contact_email: 'VARCHAR(100) NOT NULL',
      lead_time_days: 'SMALLINT UNSIGNED NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (supplier_id)',
      'CONSTRAINT fk_suppliers_country FOREIGN KEY (country_id) REFERENCES countries (country_id)',
    ],
  );
  const products = new GeneratedTable(
    'products',
    {
      product_id: 'INT UNSIGNED NOT NULL',
      sku: 'VARCHAR(16) NOT NULL',
      name: 'VARCHAR(100) NOT NULL',
      category_id: 'SMALLINT UNSIGNED NOT NULL',
      supplier_id: 'SMALLINT UNSIGNED NOT NULL',
      list_price: 'DECIMAL(10,2) NOT NULL',
      unit_cost: 'DECIMAL(10,2) NOT NULL',
      weight_kg: 'DECIMAL(6,2) NOT NULL',
      launched_on: 'DATE NOT NULL',
      is_active: 'TINYINT(1) NOT NULL DEFAULT 1',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (product_id)',
      'UNIQUE KEY uq_products_sku (sku)',
      'CONSTRAINT fk_products_category FOREIGN KEY (category_id) REFERENCES product_categories (category_id)',
      'CONSTRAINT fk_products_supplier FOREIGN KEY (supplier_id) REFERENCES suppliers (supplier_id)',
    ],
  );
  const orders = new GeneratedTable(
    'orders',
    {
      order_id: 'INT UNSIGNED NOT NULL',
      customer_id: 'INT UNSIGNED NOT NULL',
      store_id: 'SMALLINT UNSIGNED NOT NULL',
      employee_id: 'INT UNSIGNED NULL',
      order_date: 'DATETIME NOT NULL',
      status: "ENUM('pending','processing','shipped','delivered','completed','cancelled') NOT NULL",
      shipping_fee: 'DECIMAL(10,2) NOT NULL DEFAULT 0.00',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (order_id)',
      'KEY idx_orders_order_date (order_date)',
      'CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (customer_id)',
      'CONSTRAINT fk_orders_store FOREIGN KEY (store_id) REFERENCES stores (store_id)',
      'CONSTRAINT fk_orders_employee FOREIGN KEY (employee_id) REFERENCES employees (employee_id)',
    ],
  );
  // Lines carry no date and no audit column of their own: they are written once with their order.
  const orderItems = new GeneratedTable(
    'order_items',
    {
      order_id: 'INT UNSIGNED NOT NULL',
      line_number: 'SMALLINT UNSIGNED NOT NULL',
      product_id: 'INT UNSIGNED NOT NULL',
      quantity: 'SMALLINT UNSIGNED NOT NULL',
      unit_price: 'DECIMAL(10,2) NOT NULL',
      discount: 'DECIMAL(4,3) NOT NULL DEFAULT 0.000',
    },
    [
      'PRIMARY KEY (order_id, line_number)',
      'CONSTRAINT fk_order_items_order FOREIGN KEY (order_id) REFERENCES orders (order_id)',
      'CONSTRAINT fk_order_items_product FOREIGN KEY (product_id) REFERENCES products (product_id)',
    ],
  );
  const payments = new GeneratedTable(
    'payments',
    {
      payment_id: 'INT UNSIGNED NOT NULL',
      order_id: 'INT UNSIGNED NOT NULL',
      paid_at: 'DATETIME NOT NULL',
      amount: 'DECIMAL(10,2) NOT NULL',
      method: "ENUM('card','cash','paypal','gift_card') NOT NULL",
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (payment_id)',
      'CONSTRAINT fk_payments_order FOREIGN KEY (order_id) REFERENCES orders (order_id)',
    ],
  );
  const shipments = new GeneratedTable(
    'shipments',
    {
      shipment_id: 'INT UNSIGNED NOT NULL',
      order_id: 'INT UNSIGNED NOT NULL',
      carrier: 'VARCHAR(20) NOT NULL',
      tracking_number: 'VARCHAR(24) NOT NULL',
      shipped_at: 'DATETIME NOT NULL',
      delivered_at: 'DATETIME NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (shipment_id)',
      'UNIQUE KEY uq_shipments_order (order_id)',
      'CONSTRAINT fk_shipments_order FOREIGN KEY (order_id) REFERENCES orders (order_id)',
    ],
  );
  const returnReasons = referenceTable(
    'return_reasons',
    { reason_code: 'VARCHAR(20) NOT NULL', label: 'VARCHAR(60) NOT NULL' },
    RETURN_REASONS.map((reason) => ({ reason_code: reason.code, label: reason.label })),
  );
  const returns = new GeneratedTable(
    'returns',
    {
      return_id: 'INT UNSIGNED NOT NULL',
      order_id: 'INT UNSIGNED NOT NULL',
      line_number: 'SMALLINT UNSIGNED NOT NULL',
      returned_at: 'DATETIME NOT NULL',
      quantity: 'SMALLINT UNSIGNED NOT NULL',
      reason_code: 'VARCHAR(20) NOT NULL',
      last_update: AUDIT,
    },
    [
      'PRIMARY KEY (return_id)',
      // A foreign key onto the line's composite key.
      'CONSTRAINT fk_returns_order_item FOREIGN KEY (order_id, line_number) REFERENCES order_items (order_id, line_number)',
      'CONSTRAINT fk_returns_reason FOREIGN KEY (reason_code) REFERENCES return_reasons (reason_code)',
    ],
  );
  return {
    countries,
    regions,
    stores,
    employees,
    customers,
    productCategories,
    suppliers,
    products,
    orders,
    orderItems,
    payments,
    shipments,
    returnReasons,
    returns,
  };
}

/** The demo's tables, by role in generation. */
export type DemoStoreTables = ReturnType<typeof createDemoStoreTables>;
