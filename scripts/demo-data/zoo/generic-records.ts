/**
 * `zoo_generic_records`: a schema whose business cannot be told from its names (entities, items,
 * records, kinds) and comes with no description, so an analyst should call the industry
 * "general". Declared foreign keys, an event table with a DATETIME, a bridge between two
 * entities with a relation attribute, an empty table (archived_records) and a one-row table
 * (settings), a YEAR column and a flag.
 */
import { DAY_MS, formatDateTime, utcDate } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { decimal } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_generic_records';
const FROM = utcDate(2024, 9, 1);
const TO = utcDate(2025, 6, 1);

const KINDS: [string, string][] = [
  ['A01', 'Type A'],
  ['B02', 'Type B'],
  ['C03', 'Type C'],
  ['D04', 'Type D'],
  ['X99', 'Other'],
];
const UNITS = ['pcs', 'kg', 'm', 'l', 'h'];

/** Columns shared by records and their (empty) archive. */
function recordColumns() {
  return {
    record_id: 'INT NOT NULL',
    entity_id: 'INT NOT NULL',
    item_id: 'INT NOT NULL',
    recorded_at: 'DATETIME NOT NULL',
    qty: 'INT NOT NULL',
    value: 'DECIMAL(12,2) NULL',
    flag: 'TINYINT(1) NOT NULL DEFAULT 0',
    batch_year: 'YEAR NOT NULL',
  };
}

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const kinds = referenceTable(
    'kinds',
    { kind_code: 'CHAR(3) NOT NULL', label: 'VARCHAR(40) NOT NULL' },
    KINDS.map(([kind_code, label]) => ({ kind_code, label })),
  );
  const entities = new GeneratedTable(
    'entities',
    {
      entity_id: 'INT NOT NULL',
      name: 'VARCHAR(40) NOT NULL',
      kind_code: 'CHAR(3) NOT NULL',
      parent_entity_id: 'INT NULL',
      created_at: 'DATETIME NOT NULL',
    },
    [
      'PRIMARY KEY (entity_id)',
      'CONSTRAINT fk_entities_kind FOREIGN KEY (kind_code) REFERENCES kinds (kind_code)',
      'CONSTRAINT fk_entities_parent FOREIGN KEY (parent_entity_id) REFERENCES entities (entity_id)',
    ],
  );
  const items = new GeneratedTable(
    'items',
    {
      item_id: 'INT NOT NULL',
      code: 'VARCHAR(12) NOT NULL',
      label: 'VARCHAR(60) NOT NULL',
      unit: 'VARCHAR(8) NOT NULL',
      factor: 'DECIMAL(8,3) NOT NULL',
    },
    ['PRIMARY KEY (item_id)', 'UNIQUE KEY uq_items_code (code)'],
  );
  const records = new GeneratedTable('records', recordColumns(), [
    'PRIMARY KEY (record_id)',
    'CONSTRAINT fk_records_entity FOREIGN KEY (entity_id) REFERENCES entities (entity_id)',
    'CONSTRAINT fk_records_item FOREIGN KEY (item_id) REFERENCES items (item_id)',
  ]);
  const archivedRecords = new GeneratedTable('archived_records', recordColumns(), [
    'PRIMARY KEY (record_id)',
  ]);
  const entityLinks = new GeneratedTable(
    'entity_links',
    { entity_id: 'INT NOT NULL', linked_entity_id: 'INT NOT NULL', relation: 'VARCHAR(20) NOT NULL' },
    [
      'PRIMARY KEY (entity_id, linked_entity_id)',
      'CONSTRAINT fk_links_entity FOREIGN KEY (entity_id) REFERENCES entities (entity_id)',
      'CONSTRAINT fk_links_linked FOREIGN KEY (linked_entity_id) REFERENCES entities (entity_id)',
    ],
  );
  const settings = new GeneratedTable(
    'settings',
    {
      setting_id: 'TINYINT NOT NULL',
      schema_version: 'INT NOT NULL',
      time_zone: 'VARCHAR(40) NOT NULL',
      updated_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP',
    },
    ['PRIMARY KEY (setting_id)'],
  );

  const entityCount = 200;
  const created = spreadEvents(rng, {
    from: utcDate(2023, 1, 1),
    to: FROM,
    count: entityCount,
    hours: [8, 18],
  });
  created.forEach((at, i) => {
    entities.add({
      entity_id: i + 1,
      name: `E-${String(i + 1).padStart(4, '0')}`,
      kind_code: rng.weighted(KINDS, [5, 4, 3, 2, 1])[0],
      parent_entity_id: i >= 10 && rng.chance(0.3) ? rng.int(1, 10) : null,
      created_at: formatDateTime(at),
    });
  });
  for (let i = 1; i <= 60; i++) {
    items.add({
      item_id: i,
      code: `IT-${String(i * 13).padStart(5, '0')}`,
      label: `Item ${i}`,
      unit: rng.pick(UNITS),
      factor: decimal(rng.int(100, 5000), 3),
    });
  }
  const links = new Set<string>();
  while (links.size < 300) {
    const a = rng.int(1, entityCount);
    const b = rng.int(1, entityCount);
    if (a !== b) links.add(`${a}:${b}`);
  }
  for (const link of [...links].sort((x, y) => x.localeCompare(y))) {
    const [a, b] = link.split(':').map(Number);
    entityLinks.add({
      entity_id: a,
      linked_entity_id: b,
      relation: rng.pick(['owner', 'member', 'related']),
    });
  }

  spreadEvents(rng, { from: FROM, to: TO, count: 2500, weight: (day) => weekendFactor(day, 0.5) }).forEach(
    (at, i) => {
      records.add({
        record_id: i + 1,
        entity_id: rng.int(1, entityCount),
        item_id: rng.int(1, 60),
        recorded_at: formatDateTime(at),
        qty: rng.int(1, 40),
        value: rng.chance(0.1) ? null : decimal(rng.int(100, 250_000), 2),
        flag: rng.chance(0.2) ? 1 : 0,
        batch_year: new Date(at).getUTCFullYear() - (rng.chance(0.3) ? 1 : 0),
      });
    },
  );
  settings.add({
    setting_id: 1,
    schema_version: 17,
    time_zone: 'UTC',
    updated_at: formatDateTime(FROM - 3 * DAY_MS + 9 * 3_600_000),
  });

  return {
    name: NAME,
    description: '',
    statements: databaseStatements([kinds, entities, items, records, archivedRecords, entityLinks, settings]),
    truth: {
      industry: 'general',
      facts: [datedFact('records', 'recorded_at', 'instant')],
      never_aggregate: [
        ...columnsOf('entities', 'entity_id', 'parent_entity_id'),
        ...columnsOf('items', 'item_id'),
        ...columnsOf('records', 'record_id', 'entity_id', 'item_id', 'flag', 'batch_year'),
        ...columnsOf('entity_links', 'entity_id', 'linked_entity_id'),
        ...columnsOf('settings', 'setting_id', 'schema_version'),
      ],
      roles: {
        records: 'event',
        entity_links: 'bridge',
        kinds: 'lookup',
        entities: 'dimension',
        items: 'dimension',
      },
    },
  };
}

export const genericRecords: ZooSchema = {
  name: NAME,
  summary:
    'business-neutral names and no description (industry "general"): records event (DATETIME), entity_links bridge with a relation, kinds lookup, empty archived_records, one-row settings, YEAR and flag columns',
  generate,
};
