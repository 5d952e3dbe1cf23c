/** The extractor without a model: sentence splitting, and every non-duplicate fact is added. */
import { extractFactsOffline } from './deterministic-extractor';
import { NO_USAGE, type FactExtractor } from './fact-extractor';

export const offlineFactExtractor: FactExtractor = {
  kind: 'offline',
  async extract(input) {
    return { facts: extractFactsOffline(input), usage: NO_USAGE };
  },
  async decide() {
    return { decision: { event: 'ADD' }, usage: NO_USAGE };
  },
};
