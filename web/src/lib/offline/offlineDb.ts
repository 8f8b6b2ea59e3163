/**
 * The encrypted offline cache (product spec sections 3 and 9, decisions.md "Web app").
 *
 * Database version 2 with stores:
 * - reminders (keyPath id; indexes user_id, lastSynced) — title, description, send_to and
 *   metadata sealed with AES-GCM when WebCrypto is available;
 * - pendingActions (autoIncrement; fields type, reminderId, logId, data, timestamp, retryCount);
 * - preferences (keyPath userId; lastSyncTimestamp; the user's lists, sealed whole);
 * - keys: the encryption key record per user (salt + non-extractable CryptoKey).
 * The key is derived per user and device; sign-out wipes the cache and the key.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { cryptoSupported, deriveKey, openJson, randomBytes, sealJson, SALT_BYTES, type Sealed } from './crypto';
import type { PendingAction, QueueStorage } from './syncQueue';

export const DB_NAME = 'hibiki-offline';
export const DB_VERSION = 2;
export const SENSITIVE_FIELDS = ['title', 'description', 'send_to', 'metadata'] as const;

type SensitiveField = (typeof SENSITIVE_FIELDS)[number];

/** A reminder as cached: the server fields plus lastSynced. */
export interface CachedReminder {
  id: string;
  user_id: string;
  title: string;
  description?: string | null;
  send_to?: unknown;
  metadata?: unknown;
  [field: string]: unknown;
}

interface StoredReminder {
  id: string;
  user_id: string;
  lastSynced: number;
  /** sealed sensitive fields; absent when stored in the clear (no WebCrypto) */
  sealed?: Sealed;
  [field: string]: unknown;
}

interface StoredAction extends Omit<PendingAction, 'data'> {
  userId: string;
  sealedData?: Sealed;
  data?: unknown;
}

interface KeyRecord {
  id: string; // user id
  salt: Uint8Array;
  key: CryptoKey;
  createdAt: number;
}

interface Preferences {
  userId: string;
  lastSyncTimestamp: number | null;
  /** the lists (GET /api/lists) as last read, sealed (their names are the user's words) */
  sealedLists?: Sealed;
  /** the same in the clear, where WebCrypto is missing */
  lists?: unknown[];
}

interface OfflineSchema extends DBSchema {
  reminders: { key: string; value: StoredReminder; indexes: { user_id: string; lastSynced: number } };
  pendingActions: { key: number; value: StoredAction; indexes: { timestamp: number; userId: string } };
  preferences: { key: string; value: Preferences };
  keys: { key: string; value: KeyRecord };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

export function openOfflineDb(name = DB_NAME): Promise<OfflineDb> {
  return openDB<OfflineSchema>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        const reminders = db.createObjectStore('reminders', { keyPath: 'id' });
        reminders.createIndex('user_id', 'user_id');
        db.createObjectStore('pendingActions', { keyPath: 'id', autoIncrement: true });
      }
      if (oldVersion < 2) {
        // Version 2 added lastSynced, per-user actions, preferences and the key record.
        tx.objectStore('reminders').createIndex('lastSynced', 'lastSynced');
        const actions = tx.objectStore('pendingActions');
        actions.createIndex('timestamp', 'timestamp');
        actions.createIndex('userId', 'userId');
        db.createObjectStore('preferences', { keyPath: 'userId' });
        db.createObjectStore('keys', { keyPath: 'id' });
      }
    },
  });
}

/** Returns the user's key on this device, deriving and storing it on first use. */
export async function getOrCreateKey(db: OfflineDb, userId: string, now = Date.now()): Promise<CryptoKey | null> {
  if (!cryptoSupported()) return null;
  const existing = await db.get('keys', userId);
  if (existing) return existing.key;
  const salt = randomBytes(SALT_BYTES);
  // Per user and device: random device secret bound to the user id. Only the derived,
  // non-extractable key is kept, so the secret never touches storage.
  const secret = `${userId}:${Array.from(randomBytes(32), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const key = await deriveKey(secret, salt);
  await db.put('keys', { id: userId, salt, key, createdAt: now });
  return key;
}

export class OfflineStore {
  constructor(
    readonly db: OfflineDb,
    readonly userId: string,
    private readonly key: CryptoKey | null,
  ) {}

  static async open(userId: string, dbName = DB_NAME): Promise<OfflineStore> {
    const db = await openOfflineDb(dbName);
    const key = await getOrCreateKey(db, userId);
    return new OfflineStore(db, userId, key);
  }

  get encrypted(): boolean {
    return this.key !== null;
  }

  async seal(reminder: CachedReminder, now: number): Promise<StoredReminder> {
    const rest: Record<string, unknown> = { ...reminder };
    if (!this.key) return { ...(rest as CachedReminder), lastSynced: now };
    const secret: Partial<Record<SensitiveField, unknown>> = {};
    for (const f of SENSITIVE_FIELDS) {
      secret[f] = rest[f];
      delete rest[f];
    }
    return {
      ...(rest as { id: string; user_id: string }),
      lastSynced: now,
      sealed: await sealJson(this.key, secret),
    };
  }

  async unseal(stored: StoredReminder): Promise<CachedReminder> {
    const { sealed, lastSynced: _ls, ...rest } = stored;
    void _ls;
    if (!sealed) return rest as CachedReminder;
    if (!this.key) throw new Error('Encrypted record but no key');
    const secret = await openJson<Record<string, unknown>>(this.key, sealed);
    return { ...rest, ...secret } as CachedReminder;
  }

  /** Replace the user's cached reminders with `reminders`. */
  async replaceReminders(reminders: CachedReminder[], now = Date.now()): Promise<void> {
    const sealed = await Promise.all(reminders.map((r) => this.seal({ ...r, user_id: this.userId }, now)));
    const tx = this.db.transaction('reminders', 'readwrite');
    const existing = await tx.store.index('user_id').getAllKeys(this.userId);
    await Promise.all(existing.map((k) => tx.store.delete(k)));
    await Promise.all(sealed.map((r) => tx.store.put(r)));
    await tx.done;
    await this.putPreferences({ lastSyncTimestamp: now });
  }

  /** Changes this user's preferences record, keeping what it does not name. */
  private async putPreferences(change: Partial<Omit<Preferences, 'userId'>>): Promise<void> {
    const tx = this.db.transaction('preferences', 'readwrite');
    const before = await tx.store.get(this.userId);
    await tx.store.put({ lastSyncTimestamp: null, ...before, ...change, userId: this.userId });
    await tx.done;
  }

  /** Keeps the user's lists (as GET /api/lists answered), sealed like reminders' contents. */
  async replaceLists(lists: unknown[]): Promise<void> {
    if (this.key) await this.putPreferences({ sealedLists: await sealJson(this.key, lists), lists: undefined });
    else await this.putPreferences({ lists, sealedLists: undefined });
  }

  /** The lists last kept, or null when none were. */
  async getLists(): Promise<unknown[] | null> {
    const prefs = await this.db.get('preferences', this.userId);
    if (prefs?.sealedLists) {
      if (!this.key) throw new Error('Encrypted record but no key');
      return openJson<unknown[]>(this.key, prefs.sealedLists);
    }
    return prefs?.lists ?? null;
  }

  async putReminder(reminder: CachedReminder, now = Date.now()): Promise<void> {
    await this.db.put('reminders', await this.seal({ ...reminder, user_id: this.userId }, now));
  }

  async deleteReminder(id: string): Promise<void> {
    await this.db.delete('reminders', id);
  }

  async getReminders(): Promise<CachedReminder[]> {
    const rows = await this.db.getAllFromIndex('reminders', 'user_id', this.userId);
    return Promise.all(rows.map((r) => this.unseal(r)));
  }

  /** The raw stored rows (for tests and diagnostics). */
  rawReminders(): Promise<StoredReminder[]> {
    return this.db.getAllFromIndex('reminders', 'user_id', this.userId);
  }

  async lastSyncTimestamp(): Promise<number | null> {
    return (await this.db.get('preferences', this.userId))?.lastSyncTimestamp ?? null;
  }

  /** How many actions this user has queued (an index count: nothing is decrypted). */
  pendingCount(): Promise<number> {
    return this.db.countFromIndex('pendingActions', 'userId', this.userId);
  }

  /**
   * The reminders this user's queued actions are for (their "Waiting to sync" badge): ids are
   * stored beside the sealed data, so nothing is decrypted.
   */
  async pendingReminderIds(): Promise<string[]> {
    const rows = await this.db.getAllFromIndex('pendingActions', 'userId', this.userId);
    return [...new Set(rows.flatMap((r) => (r.reminderId ? [r.reminderId] : [])))];
  }

  /** The pending-action queue of this user, with action data sealed like reminders. */
  queue(): QueueStorage {
    const toStored = async (a: PendingAction): Promise<StoredAction> => {
      const { data, ...rest } = a;
      if (a.id === undefined) delete rest.id;
      if (this.key && data !== undefined) {
        return { ...rest, userId: this.userId, sealedData: await sealJson(this.key, data) };
      }
      return { ...rest, userId: this.userId, data };
    };
    const fromStored = async (s: StoredAction): Promise<PendingAction> => {
      const { sealedData, userId: _u, ...rest } = s;
      void _u;
      if (sealedData && this.key) return { ...rest, data: await openJson(this.key, sealedData) };
      return rest;
    };
    return {
      list: async () => {
        const rows = await this.db.getAllFromIndex('pendingActions', 'userId', this.userId);
        rows.sort((a, b) => a.timestamp - b.timestamp || (a.id ?? 0) - (b.id ?? 0));
        return Promise.all(rows.map(fromStored));
      },
      add: async (a) => this.db.add('pendingActions', await toStored(a)),
      put: async (a) => {
        await this.db.put('pendingActions', await toStored(a));
      },
      remove: async (id) => {
        await this.db.delete('pendingActions', id);
      },
    };
  }
}

/** Sign-out: wipe every cached reminder, queued action, preference and key on this device. */
export async function wipeOfflineData(dbName = DB_NAME): Promise<void> {
  const db = await openOfflineDb(dbName);
  const tx = db.transaction(['reminders', 'pendingActions', 'preferences', 'keys'], 'readwrite');
  await Promise.all([
    tx.objectStore('reminders').clear(),
    tx.objectStore('pendingActions').clear(),
    tx.objectStore('preferences').clear(),
    tx.objectStore('keys').clear(),
  ]);
  await tx.done;
  db.close();
}
