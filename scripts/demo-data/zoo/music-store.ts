/**
 * `zoo_music_store`: a download shop for music tracks in the style of the PascalCase sample
 * (Invoice/InvoiceLine, Track → Album → Artist, Genre, MediaType, Playlist ⇄ Track). No declared
 * foreign keys: `CustomerId`, `TrackId`, `AlbumId` match by name, `SupportRepId` and `ReportsTo`
 * point at Employee without saying so. Employee dates (BirthDate, HireDate) are DATETIME columns
 * that are not event times.
 */
import { formatDateTime, utcDate } from '../calendar';
import { growth, spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { FIRST_NAMES, personName, words } from '../names';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_music_store';
const FROM = utcDate(2021, 1, 1);
const TO = utcDate(2026, 1, 1);
const INVOICES = 650;

const GENRES = words('Rock Jazz Electronic HipHop Classical Folk Pop Blues Reggae Soul Metal Ambient');
const MEDIA_TYPES = ['MPEG audio file', 'AAC audio file', 'FLAC lossless file', 'Protected AAC audio file'];
/** Bytes per millisecond of audio, per media type. */
const BYTES_PER_MS = [40, 32, 110, 32];
const ADJECTIVES = words(`Amber Blue Broken Crimson Electric Endless Golden Hollow Midnight Neon Paper
  Quiet Restless Silver Velvet Wild Northern Hidden Faded Burning`);
const NOUNS = words(`Rivers Lanterns Foxes Echoes Satellites Harbors Orchards Engines Wolves Tides Mirrors
  Sparrows Signals Canyons Ghosts Gardens Comets Islands Bridges Owls`);
const TITLE_WORDS = words(`Morning Light Run Home Away Fire Water Dream Night Road City Heart Ocean Summer
  Winter Falling Rising Shadow Dance Letter Window Train Storm Silence Stars`);
const PLAYLISTS =
  'Workout|Focus|Road Trip|Late Night|Classics|Chill|Party|Rainy Day|Morning Coffee|Archive'.split('|');
const COUNTRIES: [string, string[], string][] = [
  ['USA', ['Austin', 'Seattle', 'Chicago', 'Boston'], '+1'],
  ['Canada', ['Toronto', 'Montreal', 'Halifax'], '+1'],
  ['Brazil', ['São Paulo', 'Curitiba'], '+55'],
  ['Germany', ['Berlin', 'Hamburg', 'Leipzig'], '+49'],
  ['France', ['Paris', 'Bordeaux'], '+33'],
  ['India', ['Pune', 'Chennai'], '+91'],
  ['Australia', ['Melbourne', 'Perth'], '+61'],
];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const id = 'INT NOT NULL';
  const Artist = new GeneratedTable('Artist', { ArtistId: id, Name: 'VARCHAR(120) NULL' }, [
    'PRIMARY KEY (ArtistId)',
  ]);
  const Album = new GeneratedTable('Album', { AlbumId: id, Title: 'VARCHAR(160) NOT NULL', ArtistId: id }, [
    'PRIMARY KEY (AlbumId)',
    'KEY IFK_AlbumArtistId (ArtistId)',
  ]);
  const Genre = referenceTable(
    'Genre',
    { GenreId: id, Name: 'VARCHAR(120) NULL' },
    GENRES.map((name, i) => ({ GenreId: i + 1, Name: name === 'HipHop' ? 'Hip Hop' : name })),
  );
  const MediaType = referenceTable(
    'MediaType',
    { MediaTypeId: id, Name: 'VARCHAR(120) NULL' },
    MEDIA_TYPES.map((name, i) => ({ MediaTypeId: i + 1, Name: name })),
  );
  const Track = new GeneratedTable(
    'Track',
    {
      TrackId: id,
      Name: 'VARCHAR(200) NOT NULL',
      AlbumId: 'INT NULL',
      MediaTypeId: id,
      GenreId: 'INT NULL',
      Composer: 'VARCHAR(220) NULL',
      Milliseconds: id,
      Bytes: 'INT NULL',
      UnitPrice: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (TrackId)', 'KEY IFK_TrackAlbumId (AlbumId)', 'KEY IFK_TrackGenreId (GenreId)'],
  );
  const Playlist = referenceTable(
    'Playlist',
    { PlaylistId: id, Name: 'VARCHAR(120) NULL' },
    PLAYLISTS.map((name, i) => ({ PlaylistId: i + 1, Name: name })),
  );
  const PlaylistTrack = new GeneratedTable('PlaylistTrack', { PlaylistId: id, TrackId: id }, [
    'PRIMARY KEY (PlaylistId, TrackId)',
    'KEY IFK_PlaylistTrackTrackId (TrackId)',
  ]);
  const Employee = new GeneratedTable(
    'Employee',
    {
      EmployeeId: id,
      LastName: 'VARCHAR(20) NOT NULL',
      FirstName: 'VARCHAR(20) NOT NULL',
      Title: 'VARCHAR(30) NULL',
      ReportsTo: 'INT NULL',
      BirthDate: 'DATETIME NULL',
      HireDate: 'DATETIME NULL',
      City: 'VARCHAR(40) NULL',
      Country: 'VARCHAR(40) NULL',
      Phone: 'VARCHAR(24) NULL',
      Email: 'VARCHAR(60) NULL',
    },
    ['PRIMARY KEY (EmployeeId)', 'KEY IFK_EmployeeReportsTo (ReportsTo)'],
  );
  const Customer = new GeneratedTable(
    'Customer',
    {
      CustomerId: id,
      FirstName: 'VARCHAR(40) NOT NULL',
      LastName: 'VARCHAR(20) NOT NULL',
      Company: 'VARCHAR(80) NULL',
      City: 'VARCHAR(40) NULL',
      Country: 'VARCHAR(40) NULL',
      PostalCode: 'VARCHAR(10) NULL',
      Phone: 'VARCHAR(24) NULL',
      Email: 'VARCHAR(60) NOT NULL',
      SupportRepId: 'INT NULL',
    },
    ['PRIMARY KEY (CustomerId)', 'KEY IFK_CustomerSupportRepId (SupportRepId)'],
  );
  const Invoice = new GeneratedTable(
    'Invoice',
    {
      InvoiceId: id,
      CustomerId: id,
      InvoiceDate: 'DATETIME NOT NULL',
      BillingCity: 'VARCHAR(40) NULL',
      BillingCountry: 'VARCHAR(40) NULL',
      BillingPostalCode: 'VARCHAR(10) NULL',
      Total: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (InvoiceId)', 'KEY IFK_InvoiceCustomerId (CustomerId)'],
  );
  const InvoiceLine = new GeneratedTable(
    'InvoiceLine',
    { InvoiceLineId: id, InvoiceId: id, TrackId: id, UnitPrice: 'DECIMAL(10,2) NOT NULL', Quantity: id },
    [
      'PRIMARY KEY (InvoiceLineId)',
      'KEY IFK_InvoiceLineInvoiceId (InvoiceId)',
      'KEY IFK_InvoiceLineTrackId (TrackId)',
    ],
  );

  const artistNames = new Set<string>();
  while (artistNames.size < 60) {
    artistNames.add(
      rng.chance(0.6)
        ? `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`
        : `${rng.pick(FIRST_NAMES)} ${rng.pick(NOUNS).slice(0, -1)}`,
    );
  }
  const tracks: { id: number; priceCents: number; popularity: number }[] = [];
  let albumId = 0;
  [...artistNames].forEach((artist, a) => {
    Artist.add({ ArtistId: a + 1, Name: artist });
    const genre = rng.int(1, GENRES.length);
    for (let n = rng.int(1, 3); n > 0; n--) {
      Album.add({
        AlbumId: ++albumId,
        Title: `${rng.pick(TITLE_WORDS)} ${rng.pick(TITLE_WORDS)}`,
        ArtistId: a + 1,
      });
      const newRelease = rng.chance(0.2);
      const mediaType = rng.weighted([1, 2, 3, 4], [6, 3, 2, 1]);
      for (let t = rng.int(8, 13); t > 0; t--) {
        const ms = Math.round(
          Math.min(900_000, Math.max(60_000, rng.normal(genre === 5 ? 420_000 : 235_000, 60_000))),
        );
        const trackId = tracks.length + 1;
        const priceCents = newRelease ? 129 : 99;
        Track.add({
          TrackId: trackId,
          Name: `${rng.pick(TITLE_WORDS)}${rng.chance(0.5) ? ` ${rng.pick(TITLE_WORDS)}` : ''}`,
          AlbumId: albumId,
          MediaTypeId: mediaType,
          GenreId: genre,
          Composer: rng.chance(0.3) ? null : personName(rng).last,
          Milliseconds: ms,
          Bytes: Math.round(ms * BYTES_PER_MS[mediaType - 1] * rng.float(0.95, 1.05)),
          UnitPrice: money(priceCents),
        });
        tracks.push({ id: trackId, priceCents, popularity: Math.exp(rng.normal(0, 1)) });
      }
    }
  });

  PLAYLISTS.forEach((name, i) => {
    // The last playlist was emptied: a parent without children.
    const size = name === 'Archive' ? 0 : rng.int(40, 380);
    for (const track of rng.sample(tracks, size).sort((x, y) => x.id - y.id)) {
      PlaylistTrack.add({ PlaylistId: i + 1, TrackId: track.id });
    }
  });

  const titles = [
    'General Manager',
    'Sales Manager',
    'Sales Support Agent',
    'Sales Support Agent',
    'Sales Support Agent',
    'IT Manager',
    'IT Staff',
    'IT Staff',
  ];
  const reportsTo = [null, 1, 2, 2, 2, 1, 6, 6];
  titles.forEach((title, i) => {
    const name = personName(rng);
    const born = utcDate(rng.int(1962, 1996), rng.int(1, 12), rng.int(1, 28));
    Employee.add({
      EmployeeId: i + 1,
      LastName: name.last,
      FirstName: name.first,
      Title: title,
      ReportsTo: reportsTo[i],
      BirthDate: formatDateTime(born),
      HireDate: formatDateTime(utcDate(rng.int(2015, 2020), rng.int(1, 12), rng.int(1, 28))),
      City: 'Calgary',
      Country: 'Canada',
      Phone: `+1 (403) 555-01${String(10 + i).padStart(2, '0')}`,
      Email: `${name.first}@musicstore.example.com`.toLowerCase(),
    });
  });

  const customers: { id: number; city: string; country: string; postal: string | null; weight: number }[] =
    [];
  for (let c = 1; c <= 60; c++) {
    const [country, cities, prefix] = rng.weighted(COUNTRIES, [5, 3, 2, 2, 2, 1, 1]);
    const name = personName(rng);
    const city = rng.pick(cities);
    const postal = country === 'India' ? null : String(rng.int(10000, 99999));
    Customer.add({
      CustomerId: c,
      FirstName: name.first,
      LastName: name.last,
      Company: rng.chance(0.2) ? `${rng.pick(NOUNS)} Media` : null,
      City: city,
      Country: country,
      PostalCode: postal,
      Phone: `${prefix} ${rng.int(100, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`,
      Email: `${name.first}.${name.last}${c}@example.net`.toLowerCase(),
      SupportRepId: rng.int(3, 5),
    });
    customers.push({ id: c, city, country, postal, weight: Math.exp(rng.normal(0, 0.5)) });
  }

  const invoiceTimes = spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: INVOICES,
    weight: (day) => weekendFactor(day, 1.4) * growth(day, FROM, TO, 1.5),
  });
  const trackWeights = tracks.map((t) => t.popularity);
  let lineId = 0;
  invoiceTimes.forEach((at, i) => {
    const customer = rng.weighted(
      customers,
      customers.map((c) => c.weight),
    );
    const size = rng.weighted([1, 2, 3, 4, 6, 9, 14], [14, 22, 20, 16, 14, 9, 5]);
    const picked = new Set<(typeof tracks)[number]>();
    while (picked.size < size) picked.add(rng.weighted(tracks, trackWeights));
    const chosen = [...picked];
    let totalCents = 0;
    for (const track of chosen) totalCents += track.priceCents;
    Invoice.add({
      InvoiceId: i + 1,
      CustomerId: customer.id,
      InvoiceDate: formatDateTime(at),
      BillingCity: customer.city,
      BillingCountry: customer.country,
      BillingPostalCode: customer.postal,
      Total: money(totalCents),
    });
    for (const track of chosen) {
      InvoiceLine.add({
        InvoiceLineId: ++lineId,
        InvoiceId: i + 1,
        TrackId: track.id,
        UnitPrice: money(track.priceCents),
        Quantity: 1,
      });
    }
  });

  return {
    name: NAME,
    description: 'Online shop selling music tracks as downloads',
    statements: databaseStatements([
      Artist,
      Album,
      Genre,
      MediaType,
      Track,
      Playlist,
      PlaylistTrack,
      Employee,
      Customer,
      Invoice,
      InvoiceLine,
    ]),
    truth: {
      industry: 'music',
      facts: [
        {
          ...datedFact('Invoice', 'InvoiceDate', 'instant'),
          revenue_sql: 'SELECT SUM(Total) AS revenue FROM Invoice',
        },
        {
          table: 'InvoiceLine',
          event_date_sql:
            'SELECT DATE(i.InvoiceDate) AS d FROM InvoiceLine l JOIN Invoice i ON i.InvoiceId = l.InvoiceId',
          event_time_column: 'Invoice.InvoiceDate',
          revenue_sql: 'SELECT SUM(UnitPrice * Quantity) AS revenue FROM InvoiceLine',
        },
      ],
      never_aggregate: [
        ...columnsOf('Artist', 'ArtistId'),
        ...columnsOf('Album', 'AlbumId', 'ArtistId'),
        ...columnsOf('Genre', 'GenreId'),
        ...columnsOf('MediaType', 'MediaTypeId'),
        ...columnsOf('Track', 'TrackId', 'AlbumId', 'MediaTypeId', 'GenreId'),
        ...columnsOf('Playlist', 'PlaylistId'),
        ...columnsOf('PlaylistTrack', 'PlaylistId', 'TrackId'),
        ...columnsOf('Employee', 'EmployeeId', 'ReportsTo'),
        ...columnsOf('Customer', 'CustomerId', 'SupportRepId'),
        ...columnsOf('Invoice', 'InvoiceId', 'CustomerId'),
        ...columnsOf('InvoiceLine', 'InvoiceLineId', 'InvoiceId', 'TrackId'),
      ],
      roles: {
        Invoice: 'header',
        InvoiceLine: 'line',
        PlaylistTrack: 'bridge',
        MediaType: 'lookup',
        Track: 'dimension',
        Album: 'dimension',
        Artist: 'dimension',
        Customer: 'dimension',
        Employee: 'dimension',
      },
    },
  };
}

export const musicStore: ZooSchema = {
  name: NAME,
  summary:
    'music download shop, chinook-style PascalCase: Invoice/InvoiceLine, snowflake Track → Album → Artist, PlaylistTrack bridge, MediaType lookup, non-event DATETIMEs (BirthDate, HireDate), no declared FKs (CustomerId, SupportRepId)',
  generate,
};
