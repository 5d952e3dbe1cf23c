/**
 * One order and everything that follows from it: its lines (prices of the day, discounts), its
 * lifecycle (paid, shipped, delivered, or cancelled / still pending at the cutoff), its payment,
 * shipment and returns. Amounts are exact integers (cents, or thousandths of a cent for discounted
 * lines), so a paid order's payment equals its lines' SUM(quantity*unit_price*(1-discount)) rounded
 * to the cent plus its shipping fee.
 */
import { DAY_MS, MINUTE_MS, formatDateTime, monthAndDay } from '../calendar';
import type { SeededRandom } from '../random';
import { decimal, money, roundHalfUp } from '../sql-literals';
import type { CatalogProduct } from './catalog';
import type { Customer } from './customers';
import type { DemoStoreTables } from './demo-store-tables';
import { isBlackFridayWeekend } from './order-intensity';
import { CARRIERS, RETURN_REASONS } from './reference-data';
import type { StoreStaff } from './staff';

const LINES_PER_ORDER = [1, 2, 3, 4, 5, 6, 7];
const LINES_PER_ORDER_WEIGHTS = [32, 27, 18, 11, 7, 3, 2];
/** Free shipping from this merchandise value (cents); otherwise a flat fee by country. */
const FREE_SHIPPING_FROM = 9900;
const SHIPPING_FEE: Record<string, number> = { US: 795, CA: 1295 };

/** An order to write: who bought what kind of thing where, and when. */
export interface OrderRequest {
  day: number;
  at: number;
  seller: StoreStaff;
  customer: Customer;
  /** Each catalogue product's relative chance of being bought that day (0: not on sale). */
  productWeights: number[];
}

interface Line {
  lineNumber: number;
  product: CatalogProduct;
  quantity: number;
}

/** A row numbered once every row of its table is known, in the order things happened. */
interface TimedRow {
  at: number;
  orderId: number;
  write: (id: number) => void;
}

/** Writes orders in time order into the sales tables. */
export class OrderWriter {
  private orderId = 0;
  private readonly payments: TimedRow[] = [];
  private readonly shipments: TimedRow[] = [];
  private readonly returns: TimedRow[] = [];

  /**
   * @param cutoff the snapshot instant (midnight of "today"): nothing happens at or after it
   */
  constructor(
    private readonly rng: SeededRandom,
    private readonly tables: DemoStoreTables,
    private readonly products: CatalogProduct[],
    private readonly cutoff: number,
  ) {}

  /** Writes the next order (ids rise with time, so call in time order) and its lines. */
  place(order: OrderRequest): void {
    const { rng, tables, cutoff } = this;
    const { day, at, seller, customer } = order;
    const id = ++this.orderId;
    const online = seller.store.type === 'online';
    const lines = chooseLines(rng, this.products, order.productWeights);
    // Prices rise once a year: a sale two years ago was at the list price of two years ago.
    const yearsBack = Math.floor((cutoff - day) / (365 * DAY_MS));
    let milliCents = 0;
    const priced = lines.map((line) => {
      const unitCents = priceAt(line.product.listCents, yearsBack);
      const discount = discountMillis(rng, day, line.product, customer, seller);
      milliCents += line.quantity * unitCents * (1000 - discount);
      return { line, unitCents, discount };
    });
    const merchandiseCents = roundHalfUp(milliCents / 1000);
    const shippingCents =
      online && merchandiseCents < FREE_SHIPPING_FROM ? SHIPPING_FEE[customer.countryCode] : 0;
    const life = online ? onlineLifecycle(rng, at, cutoff, customer) : inStoreLifecycle(rng, at);
    const notAfterCutoff = (ms: number) => formatDateTime(Math.min(ms, cutoff - 1000));

    const eligible = seller.sellers.filter((e) => e.hiredOn <= day);
    tables.orders.add({
      order_id: id,
      customer_id: customer.id,
      store_id: seller.store.id,
      employee_id: online ? null : rng.pick(eligible.length ? eligible : seller.sellers).id,
      order_date: formatDateTime(at),
      status: life.status,
      shipping_fee: money(shippingCents),
      last_update: notAfterCutoff(life.lastUpdate),
    });
    for (const { line, unitCents, discount } of priced) {
      tables.orderItems.add({
        order_id: id,
        line_number: line.lineNumber,
        product_id: line.product.id,
        quantity: line.quantity,
        unit_price: money(unitCents),
        discount: decimal(discount, 3),
      });
    }

    if (life.paidAt !== undefined) {
      const paidAt = life.paidAt;
      const method = online
        ? rng.weighted(['card', 'paypal', 'gift_card'], [68, 27, 5])
        : rng.weighted(['card', 'cash', 'gift_card'], [78, 17, 5]);
      this.payments.push({
        at: paidAt,
        orderId: id,
        write: (paymentId) =>
          tables.payments.add({
            payment_id: paymentId,
            order_id: id,
            paid_at: formatDateTime(paidAt),
            amount: money(merchandiseCents + shippingCents),
            method,
            last_update: notAfterCutoff(paidAt + 2000),
          }),
      });
    }
    if (life.shippedAt !== undefined) {
      const { shippedAt, deliveredAt } = life;
      const carrier = rng.pick(CARRIERS[customer.countryCode]);
      const tracking = `${carrier.slice(0, 2).toUpperCase()}${rng.int(100_000_000, 999_999_999)}${String(id).padStart(7, '0')}`;
      this.shipments.push({
        at: shippedAt,
        orderId: id,
        write: (shipmentId) =>
          tables.shipments.add({
            shipment_id: shipmentId,
            order_id: id,
            carrier,
            tracking_number: tracking,
            shipped_at: formatDateTime(shippedAt),
            delivered_at: deliveredAt === undefined ? null : formatDateTime(deliveredAt),
            last_update: notAfterCutoff((deliveredAt ?? shippedAt) + 60_000),
          }),
      });
    }
    if (life.status === 'completed' || life.status === 'delivered') {
      const receivedAt = life.deliveredAt ?? at;
      for (const line of lines) this.maybeReturn(id, line, receivedAt);
    }
  }

  /** Numbers payments, shipments and returns in the order they happened, as an auto-increment would. */
  finish(): void {
    for (const rows of [this.payments, this.shipments, this.returns]) {
      rows.sort((a, b) => a.at - b.at || a.orderId - b.orderId);
      rows.forEach((row, i) => row.write(i + 1));
    }
  }

  /** Maybe a return of part of a line, some days after the goods arrived. */
  private maybeReturn(orderId: number, line: Line, receivedAt: number): void {
    const { rng, tables, cutoff } = this;
    if (!rng.chance(line.product.subcategory.returnRate)) return;
    const returnedAt =
      Math.floor(receivedAt / DAY_MS) * DAY_MS +
      rng.int(1, 30) * DAY_MS +
      rng.int(9 * 60, 19 * 60) * MINUTE_MS;
    if (returnedAt >= cutoff) return;
    const apparel = line.product.topCategory === 'Clothing' || line.product.topCategory === 'Footwear';
    const reason = rng.weighted(
      RETURN_REASONS,
      RETURN_REASONS.map((r) => r.weight * (apparel && r.fit ? 6 : 1)),
    );
    const quantity = rng.int(1, line.quantity);
    const lastUpdate = Math.min(returnedAt + rng.int(5, 120) * MINUTE_MS, cutoff - 1000);
    this.returns.push({
      at: returnedAt,
      orderId,
      write: (returnId) =>
        tables.returns.add({
          return_id: returnId,
          order_id: orderId,
          line_number: line.lineNumber,
          returned_at: formatDateTime(returnedAt),
          quantity,
          reason_code: reason.code,
          last_update: formatDateTime(lastUpdate),
        }),
    });
  }
}

interface Lifecycle {
  status: 'pending' | 'processing' | 'shipped' | 'delivered' | 'completed' | 'cancelled';
  paidAt?: number;
  shippedAt?: number;
  deliveredAt?: number;
  lastUpdate: number;
}

/** A till sale: paid on the spot, goods taken home. */
function inStoreLifecycle(rng: SeededRandom, orderedAt: number): Lifecycle {
  const paidAt = orderedAt + rng.int(30, 240) * 1000;
  return { status: 'completed', paidAt, lastUpdate: paidAt + rng.int(1, 30) * 1000 };
}

/** An online order's path: cancelled, awaiting payment, paid, shipped on a working day, delivered. */
function onlineLifecycle(
  rng: SeededRandom,
  orderedAt: number,
  cutoff: number,
  customer: Customer,
): Lifecycle {
  if (rng.chance(0.035)) {
    return {
      status: 'cancelled',
      lastUpdate: Math.min(orderedAt + rng.int(10, 600) * MINUTE_MS, cutoff - 1000),
    };
  }
  const paidAt = orderedAt + rng.int(60, 900) * 1000;
  if (paidAt >= cutoff || (cutoff - orderedAt < DAY_MS && rng.chance(0.3))) {
    return { status: 'pending', lastUpdate: orderedAt + 5000 };
  }
  const dayOfPayment = Math.floor(paidAt / DAY_MS) * DAY_MS;
  let shippedAt = dayOfPayment + rng.int(0, 2) * DAY_MS + rng.int(9 * 60, 17 * 60) * MINUTE_MS;
  if (shippedAt <= paidAt) shippedAt += DAY_MS;
  if (shippedAt >= cutoff) return { status: 'processing', paidAt, lastUpdate: paidAt + 2000 };
  const transitDays = customer.countryCode === 'CA' ? rng.int(3, 7) : rng.int(2, 5);
  const deliveredAt =
    Math.floor(shippedAt / DAY_MS) * DAY_MS + transitDays * DAY_MS + rng.int(9 * 60, 20 * 60) * MINUTE_MS;
  if (deliveredAt >= cutoff) return { status: 'shipped', paidAt, shippedAt, lastUpdate: shippedAt + 60_000 };
  return { status: 'delivered', paidAt, shippedAt, deliveredAt, lastUpdate: deliveredAt + 60_000 };
}

function chooseLines(rng: SeededRandom, products: CatalogProduct[], weights: number[]): Line[] {
  const count = rng.weighted(LINES_PER_ORDER, LINES_PER_ORDER_WEIGHTS);
  const chosen = new Set<CatalogProduct>();
  for (let tries = 0; chosen.size < count && tries < count * 4; tries++)
    chosen.add(rng.weighted(products, weights));
  return [...chosen].map((product, i) => {
    const max = product.subcategory.maxQuantity;
    const quantity =
      max === 1 ? (rng.chance(0.04) ? 2 : 1) : Math.min(max, rng.weighted([1, 2, 3, max], [6, 3, 1, 1]));
    return { lineNumber: i + 1, product, quantity };
  });
}

/** The list price `yearsBack` annual price rises ago (4 % a year), keeping the .95/.99 ending. */
function priceAt(listCents: number, yearsBack: number): number {
  if (yearsBack === 0) return listCents;
  const dollars = Math.floor(listCents / 1.04 ** yearsBack / 100);
  return Math.max(dollars, 1) * 100 + (listCents % 100);
}

/** Line discount in thousandths (0–300): sale periods, the outlet, loyalty members. */
function discountMillis(
  rng: SeededRandom,
  day: number,
  product: CatalogProduct,
  customer: Customer,
  seller: StoreStaff,
): number {
  const { month, day: dom } = monthAndDay(day);
  const season = product.subcategory.season;
  if (isBlackFridayWeekend(day) && rng.chance(0.6)) return rng.pick([200, 250, 300]);
  if (month === 8 && dom >= 15 && season === 'summer' && rng.chance(0.5)) return 150;
  if (month === 3 && dom <= 15 && season === 'winter' && rng.chance(0.6)) return 250;
  if (seller.store.type === 'outlet' && rng.chance(0.7)) return rng.pick([100, 150, 200]);
  if (customer.loyaltyMember && rng.chance(0.25)) return rng.pick([50, 75]);
  return 0;
}
