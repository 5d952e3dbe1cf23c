/**
 * AES-256-GCM sealing of one parameter's value, with the parameter's name as associated data: a
 * sealed value copied to another name does not open. Shared by the file and database stores.
 * A sealed value names the key that sealed it (`key_id`, {@link keyId}); values sealed before key
 * ids existed have none and open with whichever held key authenticates them.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SealedValue {
  iv: string;
  tag: string;
  ciphertext: string;
  /** {@link keyId} of the sealing key; absent on values sealed in the first format. */
  key_id?: string;
}

/**
 * A key's public name: 8 hex characters of SHA-256 over a label and the key. It tells keys apart
 * and says nothing usable about the key (32 bits of a hash of 256 secret bits).
 */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('plat-secret-key-id\0').update(key).digest('hex').slice(0, 8);
}

export function seal(key: Buffer, name: string, value: string): SealedValue {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return {
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
    key_id: keyId(key),
  };
}

/** The value; throws when the key (or the name) is not the one it was sealed with. */
export function unseal(key: Buffer, name: string, sealed: SealedValue): string {
  const tag = Buffer.from(sealed.tag, 'base64');
  // GCM accepts shorter tags, which would make forging easier: only the full 16 bytes are ours.
  if (tag.length !== 16) throw new Error('not a sealed value: the authentication tag is not 16 bytes');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(name));
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}

/** A PLAT_SECRET_KEY value as the key's 32 bytes. */
export function decodeSecretKey(base64: string, setting = 'PLAT_SECRET_KEY'): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32)
    throw new Error(`${setting} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return key;
}
