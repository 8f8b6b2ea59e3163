/**
 * The reminders page's filters, on the list the app already holds (so they work offline on the
 * cached list): by list (`?list=<id>`) and by a search of titles and descriptions that folds text
 * as the server's search does (decisions.md "Search"; common/src/domain/lists.rs
 * `fold_for_search`): NFKC (full-width letters and half-width kana become their usual forms),
 * lower case, and katakana as hiragana.
 */
import type { List, Reminder } from '../../../lib/types';

/** Katakana ァ..ヶ and the iteration marks ヽヾ, which sit 0x60 above their hiragana. */
const KATAKANA = /[\u30A1-\u30F6\u30FD\u30FE]/g;

/** Text as search compares it: 「ｷﾞｭｳﾆｭｳ」, 「ギュウニュウ」 and 「ぎゅうにゅう」 fold alike, as do 「ｍｉｌｋ」 and "MILK". */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(KATAKANA, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
}

/** The query as search uses it: trimmed and folded; '' searches nothing (everything matches). */
export function searchKey(query: string): string {
  return foldForSearch(query.trim());
}

/** Whether a reminder's title or description holds the folded query. */
export function matchesSearch(r: Pick<Reminder, 'title' | 'description'>, folded: string): boolean {
  return folded === '' || foldForSearch(r.title).includes(folded) || (!!r.description && foldForSearch(r.description).includes(folded));
}

/**
 * The list a reminder is in. A create made offline, before the lists were known, has no list
 * yet ('') and goes to the default list, as the server will put it.
 */
export function listIdOf(r: Pick<Reminder, 'list_id'>, defaultListId: string | undefined): string {
  return r.list_id || defaultListId || '';
}

/** The default list's id, when the lists are known. */
export function defaultListOf(lists: readonly List[] | undefined): List | undefined {
  return lists?.find((l) => l.is_default);
}

/** The reminders in one list (null: every list) whose title or description holds `folded`. */
export function filterReminders<R extends Pick<Reminder, 'list_id' | 'title' | 'description'>>(
  reminders: readonly R[],
  { listId, folded, defaultListId }: { listId: string | null; folded: string; defaultListId: string | undefined },
): R[] {
  return reminders.filter((r) => (listId === null || listIdOf(r, defaultListId) === listId) && matchesSearch(r, folded));
}

/** How many of `reminders` each list holds, by list id. */
export function countByList(reminders: readonly Pick<Reminder, 'list_id'>[], defaultListId: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of reminders) {
    const id = listIdOf(r, defaultListId);
    out[id] = (out[id] ?? 0) + 1;
  }
  return out;
}
