/**
 * `zoo_saas_helpdesk`: a B2B project-planning SaaS, snake_case with no declared foreign keys (only
 * `customer_id`, `user_id`, `plan_code`… by name). Events with their own time: page views
 * (TIMESTAMP, with duration_seconds) and support tickets (DATETIME). Money in integer cents
 * (`amount_cents BIGINT`, `unit_price_cents INT`) with a discount rate on invoice lines; code →
 * label lookups; audit columns (`created_at`, `updated_at`) that are not the business date — early
 * customers all carry the day they were migrated from the old billing system.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, addMonths, formatDate, formatDateTime, utcDate } from '../calendar';
import { growth, spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { companyName, emailAddress, personName } from '../names';
import { SeededRandom } from '../random';
import { decimal, roundHalfUp } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_saas_helpdesk';
const FROM = utcDate(2024, 4, 1);
const TO = utcDate(2025, 10, 1);
/** Customers signed up before this were migrated in one batch; their created_at says so. */
const MIGRATED_AT = Date.parse('2024-03-02T02:14:07Z');

const PLANS = [
  { code: 'free', label: 'Free', cents: 0, seats: [1, 3], weight: 3 },
  { code: 'starter', label: 'Starter', cents: 900, seats: [2, 10], weight: 3 },
  { code: 'team', label: 'Team', cents: 1900, seats: [5, 40], weight: 3 },
  { code: 'business', label: 'Business', cents: 3900, seats: [30, 200], weight: 1 },
] as const;
const PRIORITIES = [
  { code: 'L', label: 'Low', weight: 3, responseMinutes: 600 },
  { code: 'N', label: 'Normal', weight: 6, responseMinutes: 180 },
  { code: 'H', label: 'High', weight: 2, responseMinutes: 45 },
  { code: 'U', label: 'Urgent', weight: 1, responseMinutes: 15 },
];
const PATHS = [
  '/app/boards',
  '/app/boards/:id',
  '/app/timeline',
  '/app/reports',
  '/app/settings/billing',
  '/app/settings/members',
  '/app/tasks/:id',
  '/app/calendar',
];
const SUBJECTS = [
  'Cannot invite a new member',
  'Export to CSV is slow',
  'Billing address change',
  'Timeline does not load',
  'Question about seat pricing',
  'SSO login fails',
  'Feature request: recurring tasks',
  'Notifications arrive twice',
];
const ADD_ONS = [
  { description: 'Extra storage 100 GB', cents: 900 },
  { description: 'Priority support', cents: 4900 },
];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const plans = referenceTable(
    'plans',
    { plan_code: 'VARCHAR(12) NOT NULL', label: 'VARCHAR(40) NOT NULL', monthly_price_cents: 'INT NOT NULL' },
    PLANS.map((p) => ({ plan_code: p.code, label: p.label, monthly_price_cents: p.cents })),
  );
  const ticketPriorities = referenceTable(
    'ticket_priorities',
    { code: 'CHAR(1) NOT NULL', label: 'VARCHAR(20) NOT NULL' },
    PRIORITIES.map((p) => ({ code: p.code, label: p.label })),
  );
  const customers = new GeneratedTable(
    'customers',
    {
      customer_id: 'INT NOT NULL',
      company_name: 'VARCHAR(80) NOT NULL',
      plan_code: 'VARCHAR(12) NOT NULL',
      seats: 'SMALLINT NOT NULL',
      country_code: 'CHAR(2) NOT NULL',
      is_enterprise: 'TINYINT(1) NOT NULL DEFAULT 0',
      signed_up_on: 'DATE NOT NULL',
      created_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
      updated_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP',
    },
    ['PRIMARY KEY (customer_id)'],
  );
  const users = new GeneratedTable(
    'users',
    {
      user_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      email: 'VARCHAR(100) NOT NULL',
      role: 'VARCHAR(20) NOT NULL',
      is_admin: 'TINYINT(1) NOT NULL DEFAULT 0',
      created_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
    },
    ['PRIMARY KEY (user_id)', 'KEY idx_users_customer (customer_id)'],
  );
  const pageViews = new GeneratedTable(
    'page_views',
    {
      page_view_id: 'BIGINT NOT NULL',
      user_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      path: 'VARCHAR(100) NOT NULL',
      viewed_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
      duration_seconds: 'INT NOT NULL',
    },
    ['PRIMARY KEY (page_view_id)', 'KEY idx_page_views_viewed_at (viewed_at)'],
  );
  const agents = new GeneratedTable(
    'agents',
    {
      agent_id: 'SMALLINT NOT NULL',
      full_name: 'VARCHAR(80) NOT NULL',
      team: 'VARCHAR(20) NOT NULL',
      hired_on: 'DATE NOT NULL',
    },
    ['PRIMARY KEY (agent_id)'],
  );
  const supportTickets = new GeneratedTable(
    'support_tickets',
    {
      ticket_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      opened_by_user_id: 'INT NOT NULL',
      agent_id: 'SMALLINT NULL',
      priority_code: 'CHAR(1) NOT NULL',
      subject: 'VARCHAR(120) NOT NULL',
      opened_at: 'DATETIME NOT NULL',
      first_response_at: 'DATETIME NULL',
      resolved_at: 'DATETIME NULL',
      satisfaction_score: 'TINYINT NULL',
      updated_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP',
    },
    ['PRIMARY KEY (ticket_id)', 'KEY idx_tickets_customer (customer_id)'],
  );
  const invoices = new GeneratedTable(
    'invoices',
    {
      invoice_id: 'INT NOT NULL',
      invoice_number: 'VARCHAR(20) NOT NULL',
      customer_id: 'INT NOT NULL',
      issued_on: 'DATE NOT NULL',
      amount_cents: 'BIGINT NOT NULL',
      currency: 'CHAR(3) NOT NULL',
      created_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
    },
    ['PRIMARY KEY (invoice_id)', 'UNIQUE KEY uq_invoice_number (invoice_number)'],
  );
  const invoiceItems = new GeneratedTable(
    'invoice_items',
    {
      invoice_id: 'INT NOT NULL',
      line_number: 'SMALLINT NOT NULL',
      plan_code: 'VARCHAR(12) NULL',
      description: 'VARCHAR(80) NOT NULL',
      seats: 'INT NOT NULL',
      unit_price_cents: 'INT NOT NULL',
      discount_rate: 'DECIMAL(4,3) NOT NULL DEFAULT 0.000',
    },
    ['PRIMARY KEY (invoice_id, line_number)'],
  );

  interface Account {
    id: number;
    plan: (typeof PLANS)[number];
    seats: number;
    signedUp: number;
    annual: boolean;
    userIds: number[];
  }
  const accounts: Account[] = [];
  const signUps = spreadEvents(rng, {
    from: utcDate(2022, 1, 1),
    to: TO - 30 * DAY_MS,
    count: 150,
    weight: (day) => growth(day, utcDate(2022, 1, 1), TO, 3),
    hours: [7, 22],
  });
  let userId = 0;
  signUps.forEach((signedUp, i) => {
    const plan = rng.weighted(
      PLANS,
      PLANS.map((p) => p.weight),
    );
    const seats = rng.int(plan.seats[0], plan.seats[1]);
    const createdAt = signedUp < MIGRATED_AT ? MIGRATED_AT : signedUp + rng.int(1, 90) * 1000;
    const account: Account = { id: i + 1, plan, seats, signedUp, annual: rng.chance(0.2), userIds: [] };
    customers.add({
      customer_id: account.id,
      company_name: `${companyName(rng)} ${rng.pick(['Inc', 'GmbH', 'Ltd', 'BV', 'SAS'])}`,
      plan_code: plan.code,
      seats,
      country_code: rng.weighted(['US', 'DE', 'GB', 'NL', 'FR', 'CA'], [5, 2, 2, 1, 1, 1]),
      is_enterprise: plan.code === 'business' && seats > 50 ? 1 : 0,
      signed_up_on: formatDate(Math.floor(signedUp / DAY_MS) * DAY_MS),
      created_at: formatDateTime(createdAt),
      updated_at: formatDateTime(Math.max(createdAt, TO - rng.int(1, 400) * DAY_MS)),
    });
    for (let u = 0, n = Math.min(seats, rng.int(1, 8)); u < n; u++) {
      const name = personName(rng);
      account.userIds.push(++userId);
      users.add({
        user_id: userId,
        customer_id: account.id,
        email: emailAddress(name, userId),
        role: u === 0 ? 'owner' : rng.pick(['member', 'member', 'viewer', 'admin']),
        is_admin: u === 0 ? 1 : 0,
        created_at: formatDateTime(Math.max(createdAt, signedUp + rng.int(0, 200) * DAY_MS)),
      });
    }
    accounts.push(account);
  });

  const activeOn = (day: number) => accounts.filter((a) => a.signedUp < day);
  // People work on weekdays: views and tickets drop at weekends.
  const workdays = (day: number) => weekendFactor(day, 0.25) * growth(day, FROM, TO, 1.8);

  spreadEvents(rng, { from: FROM, to: TO, count: 3000, weight: workdays, hours: [6, 21] }).forEach(
    (at, i) => {
      const candidates = activeOn(at);
      const account = rng.weighted(
        candidates,
        candidates.map((a) => a.userIds.length),
      );
      pageViews.add({
        page_view_id: 5_000_000 + i * 3 + rng.int(0, 2),
        user_id: rng.pick(account.userIds),
        customer_id: account.id,
        path: rng.weighted(PATHS, [8, 10, 4, 2, 1, 1, 6, 3]),
        viewed_at: formatDateTime(at),
        duration_seconds: Math.min(3600, Math.round(Math.exp(rng.normal(3.5, 1.1)))),
      });
    },
  );

  for (let a = 1; a <= 8; a++) {
    const name = personName(rng);
    agents.add({
      agent_id: a,
      full_name: `${name.first} ${name.last}`,
      team: a <= 5 ? 'Support' : 'Success',
      hired_on: formatDate(utcDate(rng.int(2019, 2024), rng.int(1, 12), rng.int(1, 28))),
    });
  }

  spreadEvents(rng, { from: FROM, to: TO, count: 900, weight: workdays, hours: [7, 19] }).forEach(
    (opened, i) => {
      const candidates = activeOn(opened);
      const account = rng.weighted(
        candidates,
        candidates.map((a) => Math.sqrt(a.seats)),
      );
      const priority = rng.weighted(
        PRIORITIES,
        PRIORITIES.map((p) => p.weight),
      );
      const responded = opened + Math.round(priority.responseMinutes * rng.float(0.2, 2)) * MINUTE_MS;
      const resolved = responded + Math.round(Math.exp(rng.normal(2, 1.2)) * HOUR_MS);
      const hasResponse = responded < TO;
      const isResolved = resolved < TO && rng.chance(0.97);
      supportTickets.add({
        ticket_id: i + 1,
        customer_id: account.id,
        opened_by_user_id: rng.pick(account.userIds),
        agent_id: hasResponse ? rng.int(1, 8) : null,
        priority_code: priority.code,
        subject: rng.pick(SUBJECTS),
        opened_at: formatDateTime(opened),
        first_response_at: hasResponse ? formatDateTime(responded) : null,
        resolved_at: isResolved ? formatDateTime(resolved) : null,
        satisfaction_score:
          isResolved && rng.chance(0.5) ? rng.weighted([1, 2, 3, 4, 5], [1, 1, 2, 4, 5]) : null,
        updated_at: formatDateTime(isResolved ? resolved : hasResponse ? responded : opened),
      });
    },
  );

  // Monthly invoices on the 1st for paying customers: seats × plan price, sometimes an add-on.
  let invoiceId = 0;
  for (let month = FROM; month < TO; month = addMonths(month, 1)) {
    for (const account of accounts) {
      if (account.plan.cents === 0 || account.signedUp >= month) continue;
      const id = ++invoiceId;
      const monthsIn = Math.floor((month - account.signedUp) / (30 * DAY_MS));
      const discount = account.annual ? 150 : monthsIn < 3 ? 200 : 0;
      const lines: {
        plan: string | null;
        description: string;
        seats: number;
        cents: number;
        discount: number;
      }[] = [
        {
          plan: account.plan.code,
          description: `${account.plan.label} plan`,
          seats: account.seats,
          cents: account.plan.cents,
          discount,
        },
      ];
      if (rng.chance(0.25)) {
        const addOn = rng.pick(ADD_ONS);
        lines.push({ plan: null, description: addOn.description, seats: 1, cents: addOn.cents, discount: 0 });
      }
      let milliCents = 0;
      lines.forEach((line, n) => {
        milliCents += line.seats * line.cents * (1000 - line.discount);
        invoiceItems.add({
          invoice_id: id,
          line_number: n + 1,
          plan_code: line.plan,
          description: line.description,
          seats: line.seats,
          unit_price_cents: line.cents,
          discount_rate: decimal(line.discount, 3),
        });
      });
      invoices.add({
        invoice_id: id,
        invoice_number: `INV-${new Date(month).getUTCFullYear()}-${String(id).padStart(6, '0')}`,
        customer_id: account.id,
        issued_on: formatDate(month),
        amount_cents: roundHalfUp(milliCents / 1000),
        currency: 'USD',
        created_at: formatDateTime(month + 2 * HOUR_MS + rng.int(0, 3599) * 1000),
      });
    }
  }

  return {
    name: NAME,
    description: 'B2B project-planning SaaS: subscriptions and invoices, product usage and the support desk',
    statements: databaseStatements([
      plans,
      ticketPriorities,
      customers,
      users,
      pageViews,
      agents,
      supportTickets,
      invoices,
      invoiceItems,
    ]),
    truth: {
      industry: 'saas',
      facts: [
        datedFact('page_views', 'viewed_at', 'instant'),
        datedFact('support_tickets', 'opened_at', 'instant'),
        {
          ...datedFact('invoices', 'issued_on', 'day'),
          revenue_sql: 'SELECT ROUND(SUM(amount_cents) / 100, 2) AS revenue FROM invoices',
        },
        {
          table: 'invoice_items',
          event_date_sql:
            'SELECT i.issued_on AS d FROM invoice_items it JOIN invoices i ON i.invoice_id = it.invoice_id',
          event_time_column: 'invoices.issued_on',
          revenue_sql:
            'SELECT SUM(seats * unit_price_cents * (1 - discount_rate)) / 100 AS revenue FROM invoice_items',
        },
      ],
      never_aggregate: [
        ...columnsOf('customers', 'customer_id', 'is_enterprise'),
        ...columnsOf('users', 'user_id', 'customer_id', 'is_admin'),
        ...columnsOf('page_views', 'page_view_id', 'user_id', 'customer_id'),
        ...columnsOf('agents', 'agent_id'),
        ...columnsOf('support_tickets', 'ticket_id', 'customer_id', 'opened_by_user_id', 'agent_id'),
        ...columnsOf('invoices', 'invoice_id', 'customer_id'),
        ...columnsOf('invoice_items', 'invoice_id', 'line_number'),
      ],
      roles: {
        page_views: 'event',
        support_tickets: 'event',
        invoices: 'header',
        invoice_items: 'line',
        plans: 'lookup',
        ticket_priorities: 'lookup',
        customers: 'dimension',
        users: 'dimension',
        agents: 'dimension',
      },
    },
  };
}

export const saasHelpdesk: ZooSchema = {
  name: NAME,
  summary:
    'B2B SaaS, snake_case without declared FKs (customer_id, user_id): page views (TIMESTAMP, duration_seconds) and support tickets (DATETIME) as events, invoices/invoice_items in integer cents with discount_rate, code → label lookups, migration-day created_at audit columns',
  generate,
};
