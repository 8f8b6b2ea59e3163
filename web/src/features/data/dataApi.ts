/**
 * Personal API tokens, export and import (api.md "Tokens, triggers, export and import"), through
 * the shared typed client but kept here rather than in lib/api.ts, which is part of the initial
 * bundle (`npm run size`), as features/channels/channelsApi.ts is.
 */
import useSWR from 'swr';
import type { components } from '../../lib/api-schema';
import { api, createApiClient } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';

export type ApiToken = components['schemas']['ApiToken'];
export type CreatedApiToken = components['schemas']['CreatedApiToken'];
export type NewApiToken = components['schemas']['NewApiToken'];
export type Scope = components['schemas']['Scope'];
export type ExportDocument = components['schemas']['ExportDocument'];
export type ImportReport = components['schemas']['ImportReport'];
export type ImportedItem = components['schemas']['ImportedItem'];
export type SkippedItem = components['schemas']['SkippedItem'];
export type SkipReason = components['schemas']['SkipReason'];

/** Every scope, in the order the form offers them. */
export const SCOPES: readonly Scope[] = ['reminders:read', 'reminders:write', 'lists:read', 'lists:write'];
/** The server keeps at most this many tokens per person (409 TOKEN_LIMIT past it). */
export const MAX_TOKENS = 20;
/** A token's name: 1 to 100 characters. */
export const MAX_TOKEN_NAME_CHARS = 100;
/** The expiries the form offers (days; null: none). */
export const EXPIRY_CHOICES = [null, 30, 90, 365] as const;
/** The most POST /api/import reads (413 past it); the browser refuses bigger files unsent. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

/** GET /api/tokens. */
export function listTokens(): Promise<ApiToken[]> {
  return api.request<ApiToken[]>('GET', '/api/tokens');
}

/** The person's tokens, newest first as the server gives them. */
export function useTokens() {
  return useSWR(swrKeys.tokens(), listTokens);
}

/**
 * POST /api/tokens: 201 the token with its `token` (`hbk_…`), the only time it is shown; 400
 * VALIDATION_FAILED (`name`, `scopes`, `expires_in_days`); 409 TOKEN_LIMIT past 20.
 */
export function createToken(input: NewApiToken): Promise<CreatedApiToken> {
  return api.request<CreatedApiToken>('POST', '/api/tokens', { body: input });
}

/** DELETE /api/tokens/{id}: 204, and the token stops working at once. */
export function deleteToken(id: string): Promise<void> {
  return api.request<void>('DELETE', `/api/tokens/${encodeURIComponent(id)}`);
}

/** GET /api/export: everything of the person's (the envelope's `data`). */
export function fetchExport(): Promise<ExportDocument> {
  return api.request<ExportDocument>('GET', '/api/export', { timeoutMs: 60_000 });
}

/** The export's file name: hibiki-export-YYYY-MM-DD.json (the day here). */
export function exportFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `hibiki-export-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

/** Saves a document as a file, as a download the browser names `name`. */
export function saveJson(doc: unknown, name: string): void {
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What the server is told the file is: a calendar (.ics, text/calendar) or Hibiki's export (JSON). */
export function importContentType(file: Pick<File, 'name' | 'type'>): 'text/calendar' | 'application/json' {
  return file.type === 'text/calendar' || /\.(ics|ical|ifb|icalendar)$/i.test(file.name) ? 'text/calendar' : 'application/json';
}

/**
 * POST /api/import?dry_run=…: the file as it is (not JSON-encoded), with its content type. The
 * app's client always sends JSON; a client of its own, whose fetch puts the file in, keeps its
 * envelope and errors (413 PAYLOAD_TOO_LARGE, 400 INVALID_JSON / VALIDATION_FAILED, 415) without
 * adding a raw body to lib/api.ts, which is in the first screen's bundle.
 */
export function importFile(file: Blob & Pick<File, 'name'>, dryRun: boolean): Promise<ImportReport> {
  const type = importContentType(file);
  const client = createApiClient({
    timeoutMs: 60_000,
    fetch: (input, init = {}) => globalThis.fetch(input, { ...init, body: file, headers: { ...(init.headers as Record<string, string>), 'Content-Type': type } }),
  });
  return client.request<ImportReport>('POST', '/api/import', { query: { dry_run: dryRun } });
}
