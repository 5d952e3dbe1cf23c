/**
 * The calibration's training data (bench/locomo-fit.ts): for every LoCoMo question and search mode,
 * the candidates the service's retrieval returns (search/hybrid-retrieval.ts, pool 40 as for a
 * top_k 10 search), each with its features, its age at the question's clock and whether it is
 * evidence. Each question is also asked of the next conversation's memories in its split, where
 * nothing answers it (`foreign`): the best of a bad lot must not look relevant. Cached as JSON under .data/bench/,
 * since building it embeds every turn.
 */
import { CurrentVectorsStore } from '../../domain/memory/store/current-vectors';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openEmbeddedMemoryStore } from '../../domain/memory/store/embedded-memory-store';
import { queryPlan, retrieve } from '../../domain/memory/search/hybrid-retrieval';
import type { RelevanceFeatures } from '../../domain/memory/search/relevance-features';
import type { RerankFeatures } from '../../domain/memory/search/rerank-features';
import { SEARCH_MODES, type SearchMode } from '../../shared/memory-requests';
import { repoRoot } from '../../shared/paths';
import { evidenceMemories, loadSamples, questionClock, storeConversations } from './locomo-data';
import { benchConfig, serviceEmbedder, startMemoryServer } from './memory-server';

/** A candidate of one question in one mode. */
export interface FeatureRow {
  features: RelevanceFeatures;
  /** What the reranker reads (hybrid): bench/locomo-fit.ts fits it first, then calibrates its order. */
  rerank?: RerankFeatures;
  /** Days between the memory's created_at and the question's clock. */
  ageDays: number;
  evidence: boolean;
}

/** One question in one mode: its candidates best first by fused relevance. */
export interface QuestionRows {
  conversation: number;
  category: number;
  mode: SearchMode;
  /** How many distinct evidence memories the question has (some may not be candidates); 0 when foreign. */
  evidence: number;
  /** Asked of another conversation's memories: no candidate answers it. */
  foreign: boolean;
  rows: FeatureRow[];
}

const POOL = 40;
const COLLECT_STAGES = { dates: true, neighbours: true, rerank: false };
const DAY_MS = 86_400_000;

/** Conversations 1–3 are the calibration's dev split; the rest are held out. */
export const DEV_CONVERSATIONS = 3;

/** The conversation whose memories a question of conversation `i` is also asked of: the next in its split. */
export function partner(i: number, n: number): number {
  const [start, end] = i < DEV_CONVERSATIONS ? [0, Math.min(n, DEV_CONVERSATIONS)] : [DEV_CONVERSATIONS, n];
  return start + ((i - start + 1) % (end - start));
}

/** The rows of the first `conversations` conversations, from the cache file or built and cached. */
export async function locomoFeatures(conversations: number, refresh: boolean): Promise<QuestionRows[]> {
  const cache = path.join(repoRoot, '.data', 'bench', `locomo-features-v4-${conversations}.json`);
  if (!refresh && fs.existsSync(cache)) {
    console.log(`features from ${path.relative(repoRoot, cache)} (BENCH_REFRESH=1 to rebuild)`);
    return JSON.parse(fs.readFileSync(cache, 'utf8')) as QuestionRows[];
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-locomo-fit-'));
  const dataDir = path.join(scratch, 'data');
  try {
    const config = benchConfig();
    const server = await startMemoryServer(dataDir, config);
    const stored = await storeConversations(server.client, loadSamples(conversations)).finally(() =>
      server.stop(),
    );
    const embedder = serviceEmbedder(config);
    // Searched as the service searches: the model's similarities rescaled by its relevance floor.
    const store = new CurrentVectorsStore(
      await openEmbeddedMemoryStore(dataDir, embedder.dimensions),
      () => embedder.id,
      () => false,
      embedder.relevanceFloor,
    );
    const out: QuestionRows[] = [];
    try {
      for (const conversation of stored) {
        const now = questionClock(conversation);
        for (const qa of conversation.sample.qa) {
          const wanted = new Set(evidenceMemories(conversation, qa));
          if (!wanted.size) continue;
          const vector = embedder.embed([qa.question], 'query').then(([v]) => v);
          const other = stored[partner(conversation.index, stored.length)];
          for (const mode of SEARCH_MODES) {
            // Every stage but the reranker, whose weights are what gets fitted: candidates in the
            // order of the fused relevance raised by neighbour shares, each with its rerank features.
            const plan = queryPlan(mode, qa.question, vector, now, COLLECT_STAGES);
            for (const asked of other === conversation ? [conversation] : [conversation, other]) {
              const foreign = asked !== conversation;
              const [candidates] = await retrieve(store, plan, [{ user_id: asked.user }], POOL);
              const rows = candidates.map((c) => ({
                features: c.features,
                ...(c.rerank ? { rerank: c.rerank } : {}),
                ageDays: Math.max(0, (now.getTime() - Date.parse(c.record.created_at)) / DAY_MS),
                evidence: !foreign && wanted.has(c.record.id),
              }));
              const evidence = foreign ? 0 : wanted.size;
              out.push({
                conversation: conversation.index,
                category: qa.category,
                mode,
                evidence,
                foreign,
                rows,
              });
            }
          }
        }
        console.log(
          `  features of conversation ${conversation.index + 1}: ${out.length} question-modes so far`,
        );
      }
    } finally {
      await store.close();
    }
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    fs.writeFileSync(cache, JSON.stringify(out));
    return out;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
