/**
 * AES-256-GCM sealing of one parameter's value, with the parameter's name as associated data: a
 * sealed value copied to another name does not open. Shared by the file and database stores.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealedValue {
  iv: string;
  tag: string;
  ciphertext: string;
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
  };
}

/** The value; throws when the key (or the name) is not the one it was sealed with. */
export function unseal(key: Buffer, name: string, sealed: SealedValue): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(name));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}

/** A PLAT_SECRET_KEY value as the key's 32 bytes. */
export function decodeSecretKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32)
    throw new Error('PLAT_SECRET_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}
