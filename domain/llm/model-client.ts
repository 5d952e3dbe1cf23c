/** The Messages API client for the configured provider: Anthropic directly, or Claude on Bedrock. */
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type { LlmSettings } from './llm-settings';

export type MessagesClient = Pick<Anthropic, 'messages'>;

export function messagesClient(settings: LlmSettings): MessagesClient {
  if (settings.provider === 'bedrock') {
    // Same Messages resource, sent as bedrock-runtime InvokeModel with SigV4 signing.
    return new AnthropicBedrock({
      awsRegion: settings.region,
      baseURL: settings.baseURL,
      maxRetries: 3,
      timeout: 120_000,
    }) as unknown as MessagesClient;
  }
  return new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    maxRetries: 3,
    timeout: 120_000,
  });
}
