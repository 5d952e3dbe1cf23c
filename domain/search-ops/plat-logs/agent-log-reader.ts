/** A project's agent log read back from the `plat-agent-logs` alias, oldest first. */
import type { AgentLogEntry } from '../../metadata-store/project-store';
import type { OpenSearchClient } from '../opensearch-client';
import { AGENT_LOGS } from './plat-log-indices';

export async function agentLogsFromOpenSearch(
  client: OpenSearchClient,
  projectId: string,
): Promise<AgentLogEntry[]> {
  const res = await client.getOrUndefined<unknown>(`/_alias/${AGENT_LOGS}`);
  if (!res) return []; // nothing shipped yet: the alias is made on the first write
  const hits: AgentLogEntry[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const page = await client.request<{
      hits: { hits: { _source: AgentLogEntry & { '@timestamp'?: string }; sort: unknown[] }[] };
    }>('POST', `/${AGENT_LOGS}/_search`, {
      size: 5000,
      query: { term: { project_id: projectId } },
      sort: [{ '@timestamp': 'asc' }, { log_key: 'asc' }],
      ...(after ? { search_after: after } : {}),
    });
    // The stored entry carries its own `timestamp`; `@timestamp` is the index's copy of it.
    for (const h of page.hits.hits)
      hits.push(
        Object.fromEntries(Object.entries(h._source).filter(([k]) => k !== '@timestamp')) as AgentLogEntry,
      );
    if (page.hits.hits.length < 5000) return hits;
    after = page.hits.hits[page.hits.hits.length - 1].sort;
  }
}
