/** Which model runs each tier, and how to reach it (absent: the offline analysts). */
import type { PlatConfig } from '../../shared/config';
import type { ModelTier } from '../../shared/pricing';

export type LlmSettings =
  | { provider: 'anthropic'; apiKey: string; baseURL?: string; models: Record<ModelTier, string> }
  /** Claude on Amazon Bedrock; AWS credentials come from the standard provider chain. */
  | { provider: 'bedrock'; region: string; baseURL?: string; models: Record<ModelTier, string> };

/** Claude settings from the configuration, or undefined for the offline analysts. */
export function llmSettings(
  config: Pick<
    PlatConfig,
    | 'PLAT_LLM_PROVIDER'
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_BASE_URL'
    | 'AWS_REGION'
    | 'PLAT_BEDROCK_BASE_URL'
    | 'PLAT_MODEL_LARGE'
    | 'PLAT_MODEL_MEDIUM'
    | 'PLAT_MODEL_SMALL'
  >,
): LlmSettings | undefined {
  const models = {
    large: config.PLAT_MODEL_LARGE,
    medium: config.PLAT_MODEL_MEDIUM,
    small: config.PLAT_MODEL_SMALL,
  };
  if (config.PLAT_LLM_PROVIDER === 'bedrock') {
    if (!config.AWS_REGION)
      throw new Error('PLAT_LLM_PROVIDER=bedrock needs AWS_REGION (and AWS credentials)');
    return { provider: 'bedrock', region: config.AWS_REGION, baseURL: config.PLAT_BEDROCK_BASE_URL, models };
  }
  if (config.PLAT_LLM_PROVIDER === 'offline' || !config.ANTHROPIC_API_KEY) return undefined;
  return {
    provider: 'anthropic',
    apiKey: config.ANTHROPIC_API_KEY,
    baseURL: config.ANTHROPIC_BASE_URL,
    models,
  };
}
