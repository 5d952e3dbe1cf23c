/** The Messages API client for the configured provider: Anthropic directly, or Claude on Bedrock. */
import type Anthropic from '@anthropic-ai/sdk';
import type { LlmSettings } from './llm-settings';

export type MessagesClient = Pick<Anthropic, 'messages'>;
type AnthropicSdk = typeof import('@anthropic-ai/sdk');
type BedrockSdk = typeof import('@anthropic-ai/bedrock-sdk');

/**
 * The SDKs load on the first call, not with this module: loading both costs a process about 0.3 s
 * of CPU, and the worker, gateway and memory service import this whether or not a model is set up
 * (the offline default calls none).
 */
export function messagesClient(settings: LlmSettings): MessagesClient {
  if (settings.provider === 'bedrock') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AnthropicBedrock } = require('@anthropic-ai/bedrock-sdk') as BedrockSdk;
    // Same Messages resource, sent as bedrock-runtime InvokeModel with SigV4 signing.
    return new AnthropicBedrock({
      awsRegion: settings.region,
      baseURL: settings.baseURL,
      maxRetries: 3,
      timeout: 120_000,
    }) as unknown as MessagesClient;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: AnthropicClient } = require('@anthropic-ai/sdk') as AnthropicSdk;
  return new AnthropicClient({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    maxRetries: 3,
    timeout: 120_000,
  });
}
