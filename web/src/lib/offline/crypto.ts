/**
 * WebCrypto helpers for the offline cache (product spec section 9): AES-GCM with a 256-bit key
 * derived by PBKDF2 (100000 iterations, SHA-256), a 16-byte salt and a 12-byte IV.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const KEY_BITS = 256;

export interface Sealed {
  iv: Uint8Array;
  data: ArrayBuffer;
}

export function cryptoSupported(): boolean {
  return typeof globalThis.crypto?.subtle?.deriveKey === 'function';
}

export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(n));
  globalThis.crypto.getRandomValues(out);
  return out;
}

/** Derives a non-extractable AES-GCM key from secret material and a salt. */
export async function deriveKey(
  secret: Uint8Array<ArrayBuffer> | string,
  salt: Uint8Array<ArrayBuffer>,
  iterations = PBKDF2_ITERATIONS,
): Promise<CryptoKey> {
  if (salt.byteLength !== SALT_BYTES) throw new Error(`salt must be ${SALT_BYTES} bytes`);
  const material = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  const base = await crypto.subtle.importKey('raw', material, 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt, iterations, hash: 'SHA-256' },
    base,
    { name: 'AES-GCM', length: KEY_BITS },
    false,
    ['encrypt', 'decrypt'],
  );
}

export async function sealJson(key: CryptoKey, value: unknown): Promise<Sealed> {
  const iv = randomBytes(IV_BYTES);
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain);
  return { iv, data };
}

/** Throws (OperationError) when the key is wrong or the data was tampered with. */
export async function openJson<T = unknown>(key: CryptoKey, sealed: Sealed): Promise<T> {
  const iv = new Uint8Array(sealed.iv);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed.data);
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}
