/**
 * A local HTTP fake of Anthropic's Messages API wire format (POST /v1/messages), so the real
 * `@anthropic-ai/sdk` client is exercised end to end. Replies are scripted per call; every request
 * is recorded for assertions.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  headers: Record<string, string | string[] | undefined>;
  body: {
    model: string;
    max_tokens: number;
    system?: unknown;
    tools?: { name: string }[];
    messages: { role: string; content: unknown }[];
  };
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface ScriptedReply {
  content: ContentBlock[];
  stop_reason: 'end_turn' | 'tool_use' | 'max_tokens';
  usage: { input_tokens: number; output_tokens: number };
}

/** The API key a request carried, whichever header it used. */
export function apiKeyOf(req: FakeRequest): string | undefined {
  const header = req.headers['x-api-key'] ?? String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  return header ? String(header) : undefined;
}

export interface MessagesFake {
  baseURL: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export interface FakeOptions {
  /** Answer each call after this long, like a model thinking (the fleet benchmark's wait). */
  latencyMs?: number;
  /** Start the script over after its last reply, for any number of calls. */
  cycle?: boolean;
}

export async function startMessagesFake(
  script: ((req: FakeRequest) => ScriptedReply)[],
  options: FakeOptions = {},
): Promise<MessagesFake> {
  const requests: FakeRequest[] = [];
  const app = express();
  app.use(express.json({ limit: '20mb' }));
  // Bedrock runtime's InvokeModel carries the same Messages body (model in the path, SigV4-signed).
  app.post('/model/:model/invoke', (req, res, next) => {
    if (!/^AWS4-HMAC-SHA256 Credential=\S+\/bedrock\/aws4_request/.test(req.get('authorization') ?? '')) {
      res.status(403).json({ message: 'missing or malformed SigV4 signature' });
      return;
    }
    req.body = { ...req.body, model: req.params.model };
    req.url = '/v1/messages';
    next();
  });
  app.post('/v1/messages', async (req, res) => {
    const recorded: FakeRequest = { headers: req.headers, body: req.body };
    requests.push(recorded);
    // The API takes the key as x-api-key or as a bearer token (newer SDKs send the latter).
    if (!req.get('x-api-key') && !/^(Bearer|AWS4-HMAC-SHA256) \S+/.test(req.get('authorization') ?? '')) {
      res.status(401).json({
        type: 'error',
        error: { type: 'authentication_error', message: 'x-api-key or Authorization header is required' },
      });
      return;
    }
    const next = script[options.cycle ? (requests.length - 1) % script.length : requests.length - 1];
    if (!next) {
      res.status(500).json({
        type: 'error',
        error: { type: 'api_error', message: `no scripted reply for call ${requests.length}` },
      });
      return;
    }
    const reply = next(recorded);
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    res.json({
      id: `msg_fake_${requests.length}`,
      type: 'message',
      role: 'assistant',
      model: req.body.model,
      content: reply.content,
      stop_reason: reply.stop_reason,
      stop_sequence: null,
      usage: { ...reply.usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
