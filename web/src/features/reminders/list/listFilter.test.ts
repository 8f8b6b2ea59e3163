// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { countByList, filterReminders, foldForSearch, matchesSearch, searchKey } from './listFilter';

describe('foldForSearch (as the server folds: NFKC, lower case, katakana as hiragana)', () => {
  it.each([
    ['ギュウニュウ', 'ぎゅうにゅう'],
    ['ｷﾞｭｳﾆｭｳ', 'ぎゅうにゅう'],
    ['ぎゅうにゅう', 'ぎゅうにゅう'],
    ['ｍｉｌｋ', 'milk'],
    ['MILK', 'milk'],
    ['Ｍｉｌｋ', 'milk'],
    ['ヴ', 'ゔ'],
    ['ヵヶ', 'ゕゖ'],
    ['ァ', 'ぁ'],
    ['ヽヾ', 'ゝゞ'],
    ['ﾊﾟﾝ', 'ぱん'],
    // the long vowel mark, kanji, ・ and hiragana stay as they are
    ['牛乳ー', '牛乳ー'],
    ['コーヒー・ミルク', 'こーひー・みるく'],
    // ヷ..ヺ (U+30F7..U+30FA) have no hiragana of their own
    ['ヷヺ', 'ヷヺ'],
    ['①', '1'],
    ['㍻', '平成'],
    ['', ''],
  ])('%s → %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });
});

describe('search', () => {
  const r = (title: string, description: string | null = null) => ({ title, description });
  it('finds any script and width in titles and descriptions', () => {
    expect(matchesSearch(r('ギュウニュウを買う'), searchKey('ぎゅうにゅう'))).toBe(true);
    expect(matchesSearch(r('ｷﾞｭｳﾆｭｳ'), searchKey('ぎゅうにゅう'))).toBe(true);
    expect(matchesSearch(r('買い物', 'ｍｉｌｋ 2本'), searchKey('milk'))).toBe(true);
    expect(matchesSearch(r('買い物', 'milk'), searchKey('tea'))).toBe(false);
    expect(matchesSearch(r('Call Mom'), searchKey('  call  '))).toBe(true);
    // blank: everything
    expect(matchesSearch(r('x'), searchKey('   '))).toBe(true);
  });
});

describe('filter by list', () => {
  const items = [
    { id: 'a', list_id: 'home', title: 'Milk', description: null },
    { id: 'b', list_id: 'work', title: 'Report', description: 'milk the numbers' },
    { id: 'c', list_id: '', title: 'queued offline', description: null },
  ];
  it('keeps one list, or all; a reminder without a list yet is in the default list', () => {
    expect(filterReminders(items, { listId: null, folded: '', defaultListId: 'home' }).map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(filterReminders(items, { listId: 'work', folded: '', defaultListId: 'home' }).map((x) => x.id)).toEqual(['b']);
    expect(filterReminders(items, { listId: 'home', folded: '', defaultListId: 'home' }).map((x) => x.id)).toEqual(['a', 'c']);
    expect(filterReminders(items, { listId: 'home', folded: 'milk', defaultListId: 'home' }).map((x) => x.id)).toEqual(['a']);
    expect(filterReminders(items, { listId: null, folded: 'milk', defaultListId: 'home' }).map((x) => x.id)).toEqual(['a', 'b']);
  });
  it('counts per list', () => {
    expect(countByList(items, 'home')).toEqual({ home: 2, work: 1 });
  });
});
