/** The extractor without a model: sentence splitting, and every non-duplicate fact is added. */
import { extractFactsOffline } from './deterministic-extractor';
import { NO_USAGE, type FactExtractor } from './fact-extractor';
import { taskLines } from './task-lines';

export const offlineFactExtractor: FactExtractor = {
  kind: 'offline',
  async extract(input, _customPrompt, category) {
    if (category === 'task') {
      const text = [input.text ?? '', ...(input.messages ?? []).map((m) => m.content)].join('\n');
      return { facts: taskLines(text), usage: NO_USAGE };
    }
    return { facts: extractFactsOffline(input), usage: NO_USAGE };
  },
  async decide() {
    return { decision: { event: 'ADD' }, usage: NO_USAGE };
  },
};
