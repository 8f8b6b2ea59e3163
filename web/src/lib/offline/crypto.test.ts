/**
 * The offline cache's key derivation against the spec's constants (product spec section 9):
 * AES-GCM with a 256-bit key derived by PBKDF2 with 100000 iterations and SHA-256, a 16-byte
 * salt and a 12-byte IV, checked on what WebCrypto is asked for and on what comes out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IV_BYTES, KEY_BITS, PBKDF2_ITERATIONS, SALT_BYTES, deriveKey, randomBytes, sealJson } from './crypto';
import { OfflineStore, openOfflineDb } from './offlineDb';

const SPEC = { iterations: 100_000, hash: 'SHA-256', saltBytes: 16, ivBytes: 12, keyBits: 256 };

afterEach(() => vi.restoreAllMocks());

/** An independent derivation with explicit parameters, as an extractable key to compare with. */
async function reference(secret: string, salt: Uint8Array<ArrayBuffer>, iterations: number, hash: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', salt, iterations, hash }, base, 256);
  return crypto.subtle.importKey('raw', bits, 'AES-GCM', false, ['encrypt']);
}

async function encryptWith(key: CryptoKey, iv: Uint8Array<ArrayBuffer>): Promise<string> {
  const out = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode('薬を飲む'));
  return Buffer.from(out).toString('hex');
}

describe('offline cache crypto parameters', () => {
  it("the constants are the spec's", () => {
    expect({ iterations: PBKDF2_ITERATIONS, saltBytes: SALT_BYTES, ivBytes: IV_BYTES, keyBits: KEY_BITS }).toEqual({
      iterations: SPEC.iterations,
      saltBytes: SPEC.saltBytes,
      ivBytes: SPEC.ivBytes,
      keyBits: SPEC.keyBits,
    });
  });

  it('the key the store makes for a user is asked of WebCrypto as PBKDF2, 100000 iterations, SHA-256, 16-byte salt -> AES-GCM 256, not extractable', async () => {
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    const db = await openOfflineDb(`crypto-params-${Math.random()}`);
    const opened = await OfflineStore.open('u-params', db.name);
    expect(derive).toHaveBeenCalledOnce();
    const [params, , derived, extractable, usages] = derive.mock.calls[0]!;
    expect(params).toMatchObject({ name: 'PBKDF2', iterations: SPEC.iterations, hash: 'SHA-256' });
    expect((params as Pbkdf2Params).salt).toHaveProperty('byteLength', SPEC.saltBytes);
    expect(derived).toEqual({ name: 'AES-GCM', length: SPEC.keyBits });
    expect(extractable).toBe(false);
    expect(usages).toEqual(['encrypt', 'decrypt']);
    // the salt kept beside the key is that one
    const record = await opened.db.get('keys', 'u-params');
    const salt = (params as Pbkdf2Params).salt as Uint8Array;
    expect(Buffer.from(record!.salt).equals(Buffer.from(salt))).toBe(true);
    expect(record!.key.extractable).toBe(false);
    expect(opened.encrypted).toBe(true);
    opened.db.close();
    db.close();
  });

  it('derives exactly the PBKDF2-SHA-256 key of 100000 iterations (same ciphertext as an independent derivation)', async () => {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const ours = await encryptWith(await deriveKey('device-secret', salt), iv);
    expect(ours).toBe(await encryptWith(await reference('device-secret', salt, SPEC.iterations, SPEC.hash), iv));
    // and not what another count or hash gives
    expect(ours).not.toBe(await encryptWith(await reference('device-secret', salt, SPEC.iterations - 1, SPEC.hash), iv));
    expect(ours).not.toBe(await encryptWith(await reference('device-secret', salt, SPEC.iterations, 'SHA-1'), iv));
  });

  it('every sealed value has a fresh 12-byte IV', async () => {
    const key = await deriveKey('s', randomBytes(16), 1000);
    const [a, b] = [await sealJson(key, 'x'), await sealJson(key, 'x')];
    expect(a.iv.byteLength).toBe(SPEC.ivBytes);
    expect(Buffer.from(a.iv).equals(Buffer.from(b.iv))).toBe(false);
  });
});
