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

  it('reads what the rows name as sold when the names are abbreviations, and only that', () => {
    const abbreviated = (rows: Record<string, string | null>[]): SourceSnapshot => ({
      ...orders,
      tables: [
        table('SLS_FCT', ['TRX_ID', 'CATEG_ID', 'AMT']),
        { ...table('CATEG_GRP', ['CATEG_ID', 'META_NAME', 'LVL2_NAME']), sample_rows: rows },
      ],
    });
    const shop = detectIndustry(
      abbreviated([
        { META_NAME: 'Jewelry & Watches', LVL2_NAME: 'Fashion Jewelry' },
        { META_NAME: 'Toys & Hobbies', LVL2_NAME: 'Collectibles' },
        { META_NAME: 'GROCERY', LVL2_NAME: 'BAKED BREAD/BUNS/ROLLS' },
        { META_NAME: 'Home & Garden', LVL2_NAME: 'Pet Supplies' },
      ]),
    );
    expect(shop.name).toBe('E-commerce / retail');
    expect(shop.evidence.join('; ')).toMatch(/values name jewelry, watches, fashion/);
    // Words that are no goods, or a single one, say nothing.
    expect(detectIndustry(abbreviated([{ META_NAME: 'North', LVL2_NAME: 'Region 7' }])).name).toBe(
      'General business',
    );
    expect(detectIndustry(abbreviated([{ META_NAME: 'Toys', LVL2_NAME: null }])).name).toBe(
      'General business',
    );
  });
});
