/** Which model runs each tier, and how to reach the Messages API (absent: offline analysts). */
import type { ModelTier } from '../../shared/pricing';

export interface LlmSettings {
  apiKey: string;
  baseURL?: string;
  models: Record<ModelTier, string>;
}
