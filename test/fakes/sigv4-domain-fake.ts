/**
 * A FAKE of an Amazon OpenSearch Service front end, for tests only: it checks every request's AWS
 * SigV4 signature as the service does (access key, region, service, a date within 5 minutes, the body's
 * SHA-256, the signature itself recomputed with the AWS SDK's own signer from the known test secret),
 * answers a refusal in the service's shape (`403 {"message": ...}`), and passes each accepted request on
 * to a real node (or to the ISM fake in front of one). It marks nothing else and runs no policy.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Known test credentials, in the shape of AWS's documentation examples. */
export const TEST_AWS_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLETESTPLAT1',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
} as const;

export interface SigV4DomainFake {
  url: string;
  /** Every request: method, path, and whether its signature held (else the refusal's reason). */
  calls: { method: string; path: string; accepted: boolean; reason?: string }[];
  stop(): Promise<void>;
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

export async function startSigV4DomainFake(opts: {
  /** Where accepted requests go. */
  upstream: string;
  region: string;
  service: 'es' | 'aoss';
}): Promise<SigV4DomainFake> {
  const calls: SigV4DomainFake['calls'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void handle(req, body)
        .then(async (refusal) => {
          calls.push({ method: req.method!, path: req.url!, accepted: !refusal, reason: refusal });
          if (refusal) {
            res.writeHead(403, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ message: refusal }));
            return;
          }
          const answer = await forward(opts.upstream, req, body);
          res.writeHead(answer.status, { 'content-type': answer.contentType });
          res.end(answer.body);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `fake failed: ${String(err)}` }));
        });
    });
  });

  /** Undefined when the signature holds; else the service's reason for refusing. */
  async function handle(req: http.IncomingMessage, body: Buffer): Promise<string | undefined> {
    const auth = req.headers.authorization;
    if (!auth) return `User: anonymous is not authorized to perform: ${opts.service}:ESHttp${req.method}`;
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) return 'Authorization header requires Credential, SignedHeaders and Signature (AWS4-HMAC-SHA256)';
    const [, accessKey, day, region, service, signedHeaders, signature] = m;
    if (accessKey !== TEST_AWS_CREDENTIALS.accessKeyId)
      return 'The security token included in the request is invalid.';
    if (region !== opts.region || service !== opts.service)
      return `Credential should be scoped to a valid region and service: '${opts.region}/${opts.service}', not '${region}/${service}'`;
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const at = Date.parse(
      amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    if (!Number.isFinite(at) || !amzDate.startsWith(day))
      return 'X-Amz-Date is missing or does not match the credential scope';
    if (Math.abs(Date.now() - at) > 5 * 60_000)
      return 'Signature expired: the request time is too far from the server time';
    const bodyHash = createHash('sha256').update(body).digest('hex');
    if (req.headers['x-amz-content-sha256'] !== bodyHash)
      return 'The provided x-amz-content-sha256 header does not match what was computed.';

    const url = new URL(req.url!, 'http://fake');
    const names = signedHeaders.split(';');
    if (!names.includes('host')) return 'Host must be a signed header';
    const headers: Record<string, string> = {};
    for (const name of names) {
      const value = req.headers[name];
      if (value === undefined) return `Signed header ${name} is missing`;
      headers[name] = Array.isArray(value) ? value.join(',') : value;
    }
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) {
      const had = query[k];
      query[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
    }
    const signer = new SignatureV4({
      service: opts.service,
      region: opts.region,
      sha256: Sha256,
      credentials: {
        ...TEST_AWS_CREDENTIALS,
        ...(headers['x-amz-security-token'] ? { sessionToken: headers['x-amz-security-token'] } : {}),
      },
    });
    const expected = await signer.sign(
      {
        method: req.method!,
        protocol: 'http:',
        hostname: headers.host.split(':')[0],
        path: url.pathname,
        query,
        headers,
        body,
      },
      { signingDate: new Date(at), signableHeaders: new Set(names) },
    );
    const computed = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1];
    const computedHeaders = /SignedHeaders=([^,]+)/.exec(String(expected.headers.authorization))?.[1];
    if (computedHeaders !== signedHeaders || computed !== signature) return SIGNATURE_MISMATCH;
    return undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function forward(
  upstream: string,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<{ status: number; contentType: string; body: Buffer }> {
  const res = await fetch(`${upstream}${req.url}`, {
    method: req.method,
    headers: req.headers['content-type'] ? { 'content-type': String(req.headers['content-type']) } : {},
    body: body.length ? new Uint8Array(body) : undefined,
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/json',
    body: Buffer.from(await res.arrayBuffer()),
  };
}
