/**
 * The lifecycle port on a real cluster: each effect one REST call (two for the shard placement), the
 * requests plat's engine has always made (docs/search-lifecycle.md#lifecycle-engine). No managed
 * storage: plat's engine runs only where the cluster has no ISM, which every managed domain has.
 */
import type { OpenSearchClient } from '../opensearch-client';
import { indexIdentities, writeIndexInAnswer, type Aliases, type IndexIdentity } from './cluster-snapshot';
import type { LifecycleCluster } from './lifecycle-cluster';

const enc = encodeURIComponent;

export class OpenSearchLifecycleCluster implements LifecycleCluster {
  constructor(private readonly client: OpenSearchClient) {}

  async writeIndexOf(alias: string): Promise<string | undefined> {
    return writeIndexInAnswer(await this.client.getOrUndefined<Aliases>(`/_alias/${enc(alias)}`), alias);
  }

  async rollover(alias: string): Promise<{ new_index: string }> {
    const res = await this.client.request<{ new_index: string }>('POST', `/${enc(alias)}/_rollover`);
    return { new_index: res.new_index };
  }

  async addAliases(index: string, aliases: string[]): Promise<void> {
    await this.client.request('POST', '/_aliases', {
      actions: aliases.map((alias) => ({ add: { index, alias } })),
    });
  }

  async setWriteBlock(index: string, blocked: boolean): Promise<void> {
    await this.client.request('PUT', `/${enc(index)}/_settings`, { 'index.blocks.write': blocked });
  }

  async setReplicas(index: string, replicas: number): Promise<void> {
    await this.client.request('PUT', `/${enc(index)}/_settings`, { 'index.number_of_replicas': replicas });
  }

  async setAllocation(index: string, settings: Record<string, string>): Promise<void> {
    await this.client.request('PUT', `/${enc(index)}/_settings`, settings);
  }

  async shardPlacement(
    index: string,
    require: Record<string, string>,
  ): Promise<{ total: number; elsewhere: number }> {
    const [shards, attrs] = await Promise.all([
      this.client.request<{ node: string | null; state: string; prirep: string }[]>(
        'GET',
        `/_cat/shards/${enc(index)}?format=json&h=node,state,prirep`,
      ),
      this.client.request<{ node: string; attr: string; value: string }[]>(
        'GET',
        '/_cat/nodeattrs?format=json&h=node,attr,value',
      ),
    ]);
    const satisfies = (node: string | null) =>
      node !== null &&
      Object.entries(require).every(([attr, value]) =>
        attr === '_name'
          ? node === value
          : attrs.some((a) => a.node === node && a.attr === attr && a.value === value),
      );
    const elsewhere = shards.filter(
      (s) => !(s.state === 'UNASSIGNED' && s.prirep === 'r') && (s.state !== 'STARTED' || !satisfies(s.node)),
    );
    return { total: shards.length, elsewhere: elsewhere.length };
  }

  async deleteIndex(index: string): Promise<void> {
    await this.client.request('DELETE', `/${enc(index)}`);
  }

  async identity(index: string): Promise<IndexIdentity | undefined> {
    const [row] = await indexIdentities(this.client, index);
    return row;
  }
}
