/**
 * The sealed format and the key ring: values name their key by id, values of the first format (no
 * key id) still open, another key or an altered value is refused, and no message carries a key or
 * a value.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SealedValueRefused, SecretKeys } from '../../domain/secrets/secret-keys';
import { keyId, seal, unseal, type SealedValue } from '../../domain/secrets/sealed-value';

const newKey = () => randomBytes(32);

/** A value sealed as plat sealed them before key ids: the same iv, tag and ciphertext, no key id. */
function sealedInFirstFormat(key: Buffer, name: string, value: string): SealedValue {
  const sealed: SealedValue = seal(key, name, value);
  delete sealed.key_id;
  return sealed;
}

/** Every way a key or value could show in a message. */
function leaks(text: string, ...secrets: (Buffer | string)[]): string[] {
  return secrets
    .flatMap((s) => (typeof s === 'string' ? [s] : [s.toString('base64'), s.toString('hex')]))
    .filter((s) => s.length >= 4 && text.includes(s));
}

describe('sealed values', () => {
  it('name their key by an 8-hex id that differs between keys and reveals no key bytes', () => {
    const key = newKey();
    const sealed = seal(key, 'projects/p/db-password', 'pw');
    expect(sealed.key_id).toMatch(/^[0-9a-f]{8}$/);
    expect(sealed.key_id).toBe(keyId(key));
    expect(keyId(newKey())).not.toBe(keyId(key));
    expect(key.toString('hex')).not.toContain(sealed.key_id);
  });

  it('open in the first format (no key id) with the key that sealed them', () => {
    const key = newKey();
    const old = sealedInFirstFormat(key, 'projects/p/db-password', 'S3cret-pässword!');
    expect(unseal(key, 'projects/p/db-password', old)).toBe('S3cret-pässword!');
    expect(new SecretKeys(key).open('projects/p/db-password', old)).toBe('S3cret-pässword!');
    // During a change-over the old key is the previous one: a first-format value still opens.
    expect(new SecretKeys(newKey(), [key]).open('projects/p/db-password', old)).toBe('S3cret-pässword!');
  });

  it('are refused under another key, another name, or altered, without naming the value or key', () => {
    const key = newKey();
    const other = newKey();
    const keys = new SecretKeys(key);
    const sealed = keys.seal('a', 'the-password-123');
    const attempts: [SecretKeys, string, SealedValue][] = [
      [new SecretKeys(other), 'a', sealed],
      [new SecretKeys(other), 'a', { ...sealed, key_id: undefined }],
      [keys, 'b', sealed],
      [keys, 'a', { ...sealed, ciphertext: Buffer.from('xxxxx').toString('base64') }],
      [keys, 'a', { ...sealed, tag: Buffer.alloc(16).toString('base64') }],
      [keys, 'a', { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') }],
      [keys, 'a', { ...sealed, iv: randomBytes(12).toString('base64') }],
      [keys, 'a', { ...sealed, key_id: keyId(other) }],
    ];
    for (const [ring, name, value] of attempts) {
      let message = '';
      try {
        ring.open(name, value);
      } catch (err) {
        expect(err).toBeInstanceOf(SealedValueRefused);
        message = (err as Error).message;
      }
      expect(message).not.toBe('');
      expect(leaks(message, key, other, 'the-password-123')).toEqual([]);
    }
  });

  it('name the keys by id when the sealing key is not held', () => {
    const gone = newKey();
    const held = new SecretKeys(newKey());
    expect(() => held.open('a', seal(gone, 'a', 'v'))).toThrow(
      new RegExp(
        `sealed under key ${keyId(gone)}, which this process does not hold \\(it holds ${held.currentId}\\)`,
      ),
    );
  });

  it('seal under the current key and open what the previous key sealed (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        (currentBytes, previousBytes, value, name) => {
          const current = Buffer.from(currentBytes);
          const previous = Buffer.from(previousBytes);
          fc.pre(!current.equals(previous));
          const ring = new SecretKeys(current, [previous]);
          const fresh = ring.seal(name, value);
          expect(ring.isCurrent(fresh)).toBe(true);
          expect(ring.open(name, fresh)).toBe(value);
          const underPrevious = seal(previous, name, value);
          expect(ring.isCurrent(underPrevious)).toBe(false);
          expect(ring.open(name, underPrevious)).toBe(value);
          expect(ring.open(name, sealedInFirstFormat(previous, name, value))).toBe(value);
          // The new key alone, after the change-over, no longer opens the old key's values.
          expect(() => new SecretKeys(current).open(name, underPrevious)).toThrow(SealedValueRefused);
          // The sealed form never holds the value in clear.
          if (value.length >= 8) expect(JSON.stringify(fresh)).not.toContain(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
