/** Which model runs each tier, and how to reach it (absent: the offline analysts). */
import type { ModelTier } from '../../shared/pricing';

export type LlmSettings =
  | { provider: 'anthropic'; apiKey: string; baseURL?: string; models: Record<ModelTier, string> }
  /** Claude on Amazon Bedrock; AWS credentials come from the standard provider chain. */
  | { provider: 'bedrock'; region: string; baseURL?: string; models: Record<ModelTier, string> };
