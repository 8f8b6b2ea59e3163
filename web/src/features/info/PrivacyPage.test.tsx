/**
 * The privacy page states the retention periods and how sign-in secrets are kept (decisions.md
 * "Retention", "Sessions", "Secrets stay secret"), and who sees a shared list ("Households":
 * the people invited to it and no one else, its contents sealed at rest), in both languages.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp } from '../../test/renderApp';

const STATEMENTS = {
  ja: [/通知の配信履歴は180日間保存/, /アーカイブから1年間保存/, /1アカウントにつき最大1,000件/, /30日間使われないと終了/, /ログインから90日で終了/, /コードとリンクは、平文で保存/, /この端末の通知の登録も解除/],
  en: [/Delivery history is kept for 180 days/, /kept for one year after archiving/, /at most 1,000 per account/, /30 days unused/, /90 days after signing in/, /never stored, logged or written to a file in plain text/, /unsubscribes this device/],
};

/** The shared-list sentence, whole: who sees a shared list's reminders, and that they stay encrypted. */
const SHARED_LISTS = {
  ja: '共有リストのリマインダーは、そのリストに招待された人だけが見ることができ、それ以外の人が見ることはありません。ほかのリマインダーと同じく、内容は暗号化して保存されます。',
  en: "A shared list's reminders are seen by the people invited to that list and by no one else; like all reminders, their contents are stored encrypted.",
};

/** Beside it, the data is never sold and is shared only within one's lists (no "shared with no one" left). */
const NOT_SOLD = {
  ja: 'リマインダーのデータを販売することはなく、あなたが共有するリストのメンバー以外と共有することもありません。',
  en: 'Reminder data is never sold to anyone, and is shared only with the people in the lists you share.',
};

describe('the privacy page', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: says how long delivery history, archived reminders and sessions are kept, and that sign-in codes are never kept in plain text`, async () => {
      mockFetch({});
      renderApp(lang === 'ja' ? '/privacy' : '/en/privacy');
      // in its own language (i18next may still be switching from the previous test's)
      await screen.findByRole('heading', { level: 1, name: lang === 'ja' ? 'プライバシーポリシー' : 'Privacy Policy' });
      const text = document.body.textContent ?? '';
      for (const s of STATEMENTS[lang]) expect(text).toMatch(s);
      // archived reminders are deleted after a year now: no "nothing is deleted" left
      expect(text).not.toMatch(lang === 'ja' ? /データは削除されません/ : /Nothing is deleted/);
    });

    it(`${lang}: says that a shared list is seen by the people invited to it and by no one else, and stays encrypted`, async () => {
      mockFetch({});
      renderApp(lang === 'ja' ? '/privacy' : '/en/privacy');
      await screen.findByRole('heading', { level: 1, name: lang === 'ja' ? 'プライバシーポリシー' : 'Privacy Policy' });
      // in the section on how data is handled, as a sentence of its own
      const section = screen.getByRole('heading', { name: lang === 'ja' ? 'データの扱い' : 'How your data is handled' }).parentElement!;
      expect(within(section).getByText(SHARED_LISTS[lang])).toBeInTheDocument();
      expect(within(section).getByText(NOT_SOLD[lang])).toBeInTheDocument();
      expect(section.textContent).not.toMatch(lang === 'ja' ? /第三者と共有/ : /not shared with/);
    });
  }
});
