/** Industry detection with fixed inputs: the description's words naming a business come first. */
import { detectIndustry } from '../../domain/agents/offline-analyst/industry-lexicon';
import type { SourceSnapshot, SourceTable } from '../../shared/source-schema';

const table = (name: string, columns: string[]): SourceTable => ({
  name,
  row_count: 100,
  columns: columns.map((c) => ({ name: c, type: 'int', data_type: 'int', nullable: false, key: '' })),
  primary_key: [columns[0]],
  foreign_keys: [],
  sample_rows: [],
});

/** An order-taking schema any wholesaler or shop could have. */
const orders: SourceSnapshot = {
  database: 'sales',
  server_version: '11',
  views: [],
  tables: [
    table('orders', ['orderNumber', 'orderDate', 'customerNumber', 'status']),
    table('orderdetails', ['orderNumber', 'productCode', 'quantityOrdered', 'priceEach']),
    table('products', ['productCode', 'productName', 'productLine', 'buyPrice']),
    table('customers', ['customerNumber', 'customerName', 'country']),
  ],
};

describe('detectIndustry', () => {
  it('takes the business the description names over vocabulary every business shares', () => {
    const wholesale = detectIndustry(orders, 'toy wholesale orders');
    expect(wholesale.name).toBe('Wholesale / trading');
    expect(wholesale.confidence).toBeGreaterThanOrEqual(0.7);
    expect(wholesale.evidence[0]).toBe('the description says "wholesale"');
    expect(detectIndustry(orders, 'our web shop orders').name).toBe('E-commerce / retail');
  });

  it('lets the schema decide between two named businesses, and says general without evidence', () => {
    const music: SourceSnapshot = {
      ...orders,
      tables: [table('Track', ['TrackId', 'AlbumId', 'GenreId']), table('Album', ['AlbumId', 'ArtistId'])],
    };
    expect(detectIndustry(music, 'music store sales').name).toBe('Music / media store');
    const bare: SourceSnapshot = { ...orders, tables: [table('t1', ['a', 'b'])] };
    expect(detectIndustry(bare, '').name).toBe('General business');
  });
});
