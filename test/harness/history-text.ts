/** A workflow history as searchable text: every payload's base64 data decoded in place. */
export function historyText(history: unknown): string {
  const decode = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(decode);
    if (node && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'data' && 'metadata' in obj) out[k] = Buffer.from(toBuffer(v)).toString('utf8');
        else out[k] = decode(v);
      }
      return out;
    }
    return node;
  };
  return JSON.stringify(decode(history));
}

function toBuffer(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  return new Uint8Array();
}
