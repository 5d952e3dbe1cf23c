import {
  columnPrefix,
  columnWords,
  identifier,
  nameWords,
  normalizedColumn,
  stem,
} from '../../domain/agents/offline-analyst/name-words';

describe('names read as words', () => {
  it.each([
    ['unitprice', 'unit price'],
    ['orderdate', 'order date'],
    ['netamount', 'net amount'],
    ['extendedprice', 'extended price'],
    ['InvoiceDate', 'invoice date'],
    ['lastname', 'last name'],
    ['unitsinstock', 'units in stock'],
    ['ord_qty', 'order quantity'],
    ['tax_amt', 'tax amount'],
    ['line_no', 'line number'],
    ['cust_no', 'customer number'],
    ['acctbal', 'account balance'],
    ['orderLineNumber', 'order line number'],
    ['address', 'address'],
    ['payment', 'payment'],
    ['milliseconds', 'milliseconds'],
  ])('%s reads as "%s"', (name, words) => {
    expect(nameWords(name).join(' ')).toBe(words);
  });

  it('keeps a token the word list cannot split readably', () => {
    expect(nameWords('xqzv_kfp')).toEqual(['xqzv', 'kfp']);
  });

  it('reads past the prefix a table puts on its columns, and only then', () => {
    const lines = {
      name: 'salesline',
      columns: ['l_id', 'l_orderid', 'l_unitprice', 'l_qty'].map((name) => ({ name })),
    };
    expect(columnPrefix(lines)).toBe('l');
    expect(columnWords(lines, 'l_unitprice')).toEqual(['unit', 'price']);
    expect(normalizedColumn(lines, 'l_orderid')).toBe('orderid');
    const orders = { name: 'orders', columns: ['order_id', 'is_paid', 'amount'].map((name) => ({ name })) };
    expect(columnPrefix(orders)).toBeUndefined();
    expect(columnWords(orders, 'is_paid')).toEqual(['is', 'paid']);
  });

  it('meets the forms of one verb in one stem', () => {
    expect(['shipped', 'shipping', 'shipment', 'ship'].map(stem)).toEqual(['ship', 'ship', 'ship', 'ship']);
    expect(stem('rental')).toBe(stem('rented'));
  });

  it('keeps SQL identifiers as written: no segmentation or expansion in names plat creates', () => {
    expect(identifier('InvoiceLine')).toBe('invoice_line');
    expect(identifier('ord_qty')).toBe('ord_qty');
    expect(identifier('unitprice')).toBe('unitprice');
  });
});
