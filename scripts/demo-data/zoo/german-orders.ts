/**
 * `zoo_german_orders`: a German wholesaler named in German compounds (`Bestellungen`,
 * `Bestellpositionen`, `Einzelpreis`, `Lagerbestand`, `Kreditlimit`, `Zahlungsdatum`), primary keys
 * declared and no foreign key. Order lines carry a quantity, a unit price and a percentage discount
 * (`Rabatt`); payments carry the account's balance after each payment (`Kontostand`), a level no
 * day may add up; articles keep their stock on hand, customers their credit limit.
 */
import { DAY_MS, formatDate, formatDateTime, utcDate } from '../calendar';
import { spreadEvents } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_german_orders';
const FROM = utcDate(2024, 2, 1);
const TO = utcDate(2025, 5, 1);
const STAEDTE: [string, string][] = [
  ['Hamburg', 'Deutschland'],
  ['München', 'Deutschland'],
  ['Wien', 'Österreich'],
  ['Zürich', 'Schweiz'],
  ['Köln', 'Deutschland'],
];
const KATEGORIEN = ['Werkzeug', 'Garten', 'Haushalt', 'Elektro'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const kunden = new GeneratedTable(
    'Kunden',
    {
      KundenNr: 'INT NOT NULL',
      Firmenname: 'VARCHAR(60) NOT NULL',
      Stadt: 'VARCHAR(30) NOT NULL',
      Land: 'VARCHAR(30) NOT NULL',
      Kreditlimit: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (KundenNr)'],
  );
  const artikel = new GeneratedTable(
    'Artikel',
    {
      ArtikelNr: 'INT NOT NULL',
      Bezeichnung: 'VARCHAR(60) NOT NULL',
      Kategorie: 'VARCHAR(30) NOT NULL',
      Lagerbestand: 'INT NOT NULL',
      Listenpreis: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (ArtikelNr)'],
  );
  const bestellungen = new GeneratedTable(
    'Bestellungen',
    {
      BestellNr: 'INT NOT NULL',
      KundenNr: 'INT NOT NULL',
      Bestelldatum: 'DATE NOT NULL',
      Versanddatum: 'DATE NULL',
    },
    ['PRIMARY KEY (BestellNr)'],
  );
  const positionen = new GeneratedTable(
    'Bestellpositionen',
    {
      BestellNr: 'INT NOT NULL',
      PositionNr: 'INT NOT NULL',
      ArtikelNr: 'INT NOT NULL',
      Menge: 'INT NOT NULL',
      Einzelpreis: 'DECIMAL(10,2) NOT NULL',
      Rabatt: 'TINYINT NOT NULL',
    },
    ['PRIMARY KEY (BestellNr, PositionNr)'],
  );
  const zahlungen = new GeneratedTable(
    'Zahlungen',
    {
      ZahlungsNr: 'INT NOT NULL',
      KundenNr: 'INT NOT NULL',
      Zahlungsdatum: 'DATETIME NOT NULL',
      Betrag: 'DECIMAL(12,2) NOT NULL',
      Kontostand: 'DECIMAL(12,2) NOT NULL',
    },
    ['PRIMARY KEY (ZahlungsNr)'],
  );

  STAEDTE.forEach(([stadt, land], i) =>
    kunden.add({
      KundenNr: 1001 + i,
      Firmenname: `${stadt} Handel GmbH`,
      Stadt: stadt,
      Land: land,
      Kreditlimit: money(rng.int(50, 500) * 10_000),
    }),
  );
  const preise: number[] = [];
  for (let i = 1; i <= 24; i++) {
    preise[i] = rng.int(499, 29_999);
    artikel.add({
      ArtikelNr: 5000 + i,
      Bezeichnung: `Artikel ${i}`,
      Kategorie: KATEGORIEN[i % KATEGORIEN.length],
      Lagerbestand: rng.int(0, 800),
      Listenpreis: money(preise[i]),
    });
  }
  spreadEvents(rng, { from: FROM, to: TO, count: 320 }).forEach((at, i) => {
    const nr = 70_001 + i;
    bestellungen.add({
      BestellNr: nr,
      KundenNr: 1001 + rng.int(0, STAEDTE.length - 1),
      Bestelldatum: formatDate(at),
      Versanddatum: rng.chance(0.9) ? formatDate(at + rng.int(1, 5) * DAY_MS) : null,
    });
    for (let p = 1; p <= rng.int(1, 5); p++) {
      const a = rng.int(1, 24);
      positionen.add({
        BestellNr: nr,
        PositionNr: p,
        ArtikelNr: 5000 + a,
        Menge: rng.int(1, 12),
        Einzelpreis: money(preise[a] - rng.int(0, 3) * 50),
        Rabatt: rng.pick([0, 0, 3, 5, 12]),
      });
    }
  });
  const stand = new Map<number, number>();
  spreadEvents(rng, { from: FROM, to: TO, count: 260, hours: [8, 17] }).forEach((at, i) => {
    const kunde = 1001 + rng.int(0, STAEDTE.length - 1);
    const betrag = rng.int(2_000, 400_000);
    stand.set(kunde, (stand.get(kunde) ?? 1_000_000) + betrag);
    zahlungen.add({
      ZahlungsNr: 1 + i,
      KundenNr: kunde,
      Zahlungsdatum: formatDateTime(at),
      Betrag: money(betrag),
      Kontostand: money(stand.get(kunde)!),
    });
  });

  return {
    name: NAME,
    description: 'Großhandel für Werkzeug, Garten und Haushalt: Bestellungen und Zahlungen',
    statements: databaseStatements([kunden, artikel, bestellungen, positionen, zahlungen]),
    truth: {
      industry: ['wholesale', 'retail'],
      facts: [
        {
          table: 'Bestellpositionen',
          event_date_sql:
            'SELECT b.Bestelldatum AS d FROM Bestellpositionen p JOIN Bestellungen b ON b.BestellNr = p.BestellNr',
          event_time_column: 'Bestellungen.Bestelldatum',
          // A percentage discount, in the source's own arithmetic (nothing rounded per line).
          revenue_sql:
            'SELECT SUM(Menge * Einzelpreis * (1 - Rabatt / 100)) AS revenue FROM Bestellpositionen',
          revenue_column: 'revenue',
        },
        {
          ...datedFact('Zahlungen', 'Zahlungsdatum', 'instant'),
          revenue_sql: 'SELECT SUM(Betrag) AS revenue FROM Zahlungen',
        },
      ],
      never_aggregate: [
        ...columnsOf('Bestellpositionen', 'BestellNr', 'PositionNr', 'ArtikelNr'),
        ...columnsOf('Zahlungen', 'ZahlungsNr', 'KundenNr'),
        ...columnsOf('Bestellungen', 'BestellNr', 'KundenNr'),
      ],
      levels: ['Zahlungen.Kontostand', 'Artikel.Lagerbestand', 'Kunden.Kreditlimit'],
      roles: {
        Bestellungen: 'header',
        Bestellpositionen: 'line',
        Zahlungen: 'event',
        Kunden: 'dimension',
        Artikel: 'dimension',
      },
    },
  };
}

export const germanOrders: ZooSchema = {
  name: NAME,
  summary:
    'A German wholesaler in compound names (Bestellpositionen, Einzelpreis, Lagerbestand), keys without foreign keys, percentage discounts, a balance on payments',
  generate,
};
