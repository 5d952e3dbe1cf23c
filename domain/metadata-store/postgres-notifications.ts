/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection per process: a gateway hears, within
 * milliseconds of the commit, that a worker on another host stored events
 * (docs/fleet.md#events-across-gateways). The connection is opened on the first listener and
 * reopened after a failure; what was sent while it was down is not delivered, so listeners also
 * poll, more slowly.
 */
import pg from 'pg';

type Listener = (payload: string) => void;

/** How long to wait before reconnecting after the connection failed. */
const RECONNECT_MS = 1000;

export class PostgresNotifications {
  private readonly listeners = new Map<string, Set<Listener>>();
  private client?: pg.Client;
  private connecting?: Promise<void>;
  private closed = false;

  constructor(private readonly url: string) {}

  /** Calls `listener` with each payload sent on `channel`; answers the function that stops it. */
  async listen(channel: string, listener: Listener): Promise<() => void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.listeners.get(channel);
    const fresh = !set;
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    await this.connect();
    if (fresh) await this.client?.query(`LISTEN ${channel}`).catch(() => this.reconnectLater());
    return () => {
      set.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, application_name: 'plat-listen' });
      client.on('notification', (n) => {
        for (const l of this.listeners.get(n.channel) ?? []) l(n.payload ?? '');
      });
      // Only the current connection's failure reconnects (an old one's late 'end' is ignored).
      const lost = () => {
        if (this.client === client) this.reconnectLater();
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
        for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.client = client;
      } catch {
        await client.end().catch(() => {});
        this.reconnectLater();
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  private reconnectLater(): void {
    if (this.closed) return;
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => {});
    setTimeout(() => void this.connect(), RECONNECT_MS).unref();
  }
}
