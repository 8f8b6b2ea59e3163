import { describe, expect, it } from 'vitest';
import { deriveKey, openJson, randomBytes, sealJson } from './crypto';
import { DB_VERSION, OfflineStore, openOfflineDb, wipeOfflineData } from './offlineDb';
import { processQueue } from './syncQueue';

let n = 0;
const freshName = () => `test-db-${++n}-${Math.random()}`;

describe('crypto', () => {
  it('round-trips with the same key and fails with a wrong key', async () => {
    const salt = randomBytes(16);
    const key = await deriveKey('secret-a', salt, 1000);
    const sealed = await sealJson(key, { title: '薬を飲む', n: 1 });
    expect(sealed.iv.byteLength).toBe(12);
    expect(await openJson(key, sealed)).toEqual({ title: '薬を飲む', n: 1 });

    const other = await deriveKey('secret-b', salt, 1000);
    await expect(openJson(other, sealed)).rejects.toThrow();
    const otherSalt = await deriveKey('secret-a', randomBytes(16), 1000);
    await expect(openJson(otherSalt, sealed)).rejects.toThrow();
  });
  it('derives a non-extractable 256-bit AES-GCM key with the spec parameters', async () => {
    const key = await deriveKey('s', randomBytes(16));
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(deriveKey('s', randomBytes(8))).rejects.toThrow('salt must be 16 bytes');
  });
  it('detects tampering', async () => {
    const key = await deriveKey('x', randomBytes(16), 1000);
    const sealed = await sealJson(key, 'hello');
    const bytes = new Uint8Array(sealed.data.slice(0));
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await expect(openJson(key, { iv: sealed.iv, data: bytes.buffer })).rejects.toThrow();
  });
});

describe('offline database', () => {
  it('is version 2 with the four stores and the indexes', async () => {
    const db = await openOfflineDb(freshName());
    // The number itself: a version bump must come with a migration and this test's update.
    expect(db.version).toBe(2);
    expect(DB_VERSION).toBe(2);
    expect([...db.objectStoreNames].sort()).toEqual(['keys', 'pendingActions', 'preferences', 'reminders']);
    const tx = db.transaction('reminders');
    expect([...tx.store.indexNames].sort()).toEqual(['lastSynced', 'user_id']);
    db.close();
  });

  it('stores reminders encrypted and reads them back', async () => {
    const name = freshName();
    const store = await OfflineStore.open('u1', name);
    expect(store.encrypted).toBe(true);
    await store.replaceReminders(
      [
        { id: 'r1', user_id: 'u1', title: '会議', description: 'secret plans', send_to: null, metadata: { a: 1 }, send_at: '2030-01-01T00:00:00Z' },
        { id: 'r2', user_id: 'u1', title: 'Call mom', send_at: '2030-01-02T00:00:00Z' },
      ],
      1234,
    );
    const raw = await store.rawReminders();
    expect(raw).toHaveLength(2);
    const r1 = raw.find((r) => r.id === 'r1')!;
    expect(r1.title).toBeUndefined();
    expect(r1.description).toBeUndefined();
    expect(r1.send_at).toBe('2030-01-01T00:00:00Z');
    expect(r1.lastSynced).toBe(1234);
    expect(JSON.stringify(raw)).not.toContain('secret plans');

    const back = await store.getReminders();
    expect(back.find((r) => r.id === 'r1')).toMatchObject({ title: '会議', description: 'secret plans', metadata: { a: 1 } });
    expect(await store.lastSyncTimestamp()).toBe(1234);

    // Re-opened (same device): the stored key still decrypts.
    store.db.close();
    const again = await OfflineStore.open('u1', name);
    expect((await again.getReminders()).map((r) => r.title).sort()).toEqual(['Call mom', '会議']);
    again.db.close();
  });

  it('keeps the lists sealed, per user, beside the reminders', async () => {
    const name = freshName();
    const store = await OfflineStore.open('u1', name);
    expect(await store.getLists()).toBeNull();
    const lists = [{ id: 'l1', name: '仕事の秘密', colour: 'red', is_default: false }];
    await store.replaceLists(lists);
    // a later reminders write keeps them
    await store.replaceReminders([{ id: 'r1', user_id: 'u1', title: 'x' }], 99);
    expect(await store.getLists()).toEqual(lists);
    expect(await store.lastSyncTimestamp()).toBe(99);
    const raw = await store.db.get('preferences', 'u1');
    expect(JSON.stringify(raw)).not.toContain('仕事の秘密');
    const other = await OfflineStore.open('u2', name);
    expect(await other.getLists()).toBeNull();
    const wrong = new OfflineStore(store.db, 'u1', await deriveKey('other', randomBytes(16), 1000));
    await expect(wrong.getLists()).rejects.toThrow();
    store.db.close();
    other.db.close();
  });

  it('fails to decrypt with a wrong key', async () => {
    const name = freshName();
    const store = await OfflineStore.open('u1', name);
    await store.putReminder({ id: 'r1', user_id: 'u1', title: 'x' });
    const wrong = new OfflineStore(store.db, 'u1', await deriveKey('other', randomBytes(16), 1000));
    await expect(wrong.getReminders()).rejects.toThrow();
    store.db.close();
  });

  it('keeps users apart', async () => {
    const name = freshName();
    const a = await OfflineStore.open('a', name);
    const b = await OfflineStore.open('b', name);
    await a.putReminder({ id: 'ra', user_id: 'a', title: 'A' });
    await b.putReminder({ id: 'rb', user_id: 'b', title: 'B' });
    expect((await a.getReminders()).map((r) => r.id)).toEqual(['ra']);
    expect((await b.getReminders()).map((r) => r.id)).toEqual(['rb']);
    a.db.close();
    b.db.close();
  });

  it('backs the sync queue with sealed action data', async () => {
    const name = freshName();
    const store = await OfflineStore.open('u1', name);
    const q = store.queue();
    await q.add({ type: 'update', reminderId: 'r1', data: { title: 'secret' }, timestamp: 2, retryCount: 0 });
    await q.add({ type: 'create', reminderId: 'temp-1', data: { title: 'first' }, timestamp: 1, retryCount: 0 });
    const raw = await store.db.getAll('pendingActions');
    expect(JSON.stringify(raw)).not.toContain('secret');
    const listed = await q.list();
    expect(listed.map((a) => a.type)).toEqual(['create', 'update']);
    expect(listed[1]?.data).toEqual({ title: 'secret' });

    const seen: string[] = [];
    await processQueue({
      storage: q,
      api: {
        create: async () => ({ id: 'srv' }),
        update: async (id, d) => void seen.push(`${id}:${(d as { title: string }).title}`),
        remove: async () => undefined,
        handle: async () => undefined,
      },
    });
    expect(seen).toEqual(['r1:secret']);
    expect(await q.list()).toEqual([]);
    store.db.close();
  });

  it('wipes everything, including the key, at sign-out', async () => {
    const name = freshName();
    const store = await OfflineStore.open('u1', name);
    await store.putReminder({ id: 'r1', user_id: 'u1', title: 'x' });
    store.db.close();
    await wipeOfflineData(name);
    const db = await openOfflineDb(name);
    expect(await db.count('reminders')).toBe(0);
    expect(await db.count('keys')).toBe(0);
    db.close();
  });

  it('upgrades a version 1 database', async () => {
    const name = freshName();
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        db.createObjectStore('reminders', { keyPath: 'id' }).createIndex('user_id', 'user_id');
        db.createObjectStore('pendingActions', { keyPath: 'id', autoIncrement: true });
      };
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    const db = await openOfflineDb(name);
    expect(db.version).toBe(2);
    expect(db.objectStoreNames.contains('keys')).toBe(true);
    db.close();
  });
});
