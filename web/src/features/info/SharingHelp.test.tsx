/**
 * The guide and the FAQ explain shared lists (decisions.md "Households: lists and sharing"):
 * inviting and joining, who is reminded and taking turns, Complete by one for everyone, a
 * personal snooze, leaving; in the words the app's own controls use, in ja and en.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetAuthForTests } from '../../lib/authStore';
import { resetGuideProgressForTests } from '../../shared/guideProgress';
import { mockFetch, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { SHARING_TOPICS } from './SharingGuide';

const LANGS = ['ja', 'en'] as const;
const path = (lang: 'ja' | 'en', p: string) => (lang === 'ja' ? p : `/en${p}`);

/** What each language must say, in the product's words. */
const GUIDE_SAYS = {
  ja: [/招待/, /7日間有効/, /10人まで/, /リストの全員に通知/, /順番に担当/, /全員分が完了/, /スヌーズした人だけ/, /押した人にだけ通知/],
  en: [/invite someone by email/, /valid for 7 days/, /up to 10 people/, /everyone in the list is/, /Take turns/, /complete for everyone/, /only for the person who snoozed/, /only the person who pressed it/],
};

const FAQ = {
  ja: {
    group: '共有リスト',
    questions: ['家族とリマインダーを共有できますか？', '共有リストでは、誰に通知が届きますか？', 'ほかの人が完了すると、どうなりますか？', '共有リストは誰が見られますか？'],
    says: [/メールアドレスで招待/, /「通知する人」/, /「順番に担当」/, /誰が完了したか/, /スヌーズは自分だけ/, /暗号化して保存/, /その変更は取り消され/],
  },
  en: {
    group: 'Shared lists',
    questions: ['Can my family share reminders?', 'Who gets notified in a shared list?', 'What happens when someone else completes it?', 'Who can see a shared list?'],
    says: [/invite your family by email/, /“Who is reminded”/, /“Take turns”/, /saying who did it/, /Snoozing is personal/, /stored encrypted/, /your change is dropped/],
  },
};

beforeEach(() => {
  resetGuideProgressForTests();
  resetAuthForTests({ status: 'signedOut' });
  mockFetch({});
});

describe('the guide on sharing a list', () => {
  for (const lang of LANGS) {
    it(`${lang}: a section on the first tab with every topic, in order`, async () => {
      renderApp(path(lang, '/guide'));
      const heading = await screen.findByRole('heading', { level: 2, name: tr(lang, 'info:guide.sharing.title') });
      const section = heading.closest('section')!;
      expect(section.closest('[role="tabpanel"]')).toHaveAccessibleName(tr(lang, 'info:guide.tabs.steps'));
      expect(within(section).getByText(tr(lang, 'info:guide.sharing.intro'))).toBeInTheDocument();
      const items = within(section).getAllByRole('listitem');
      expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(SHARING_TOPICS.map((k) => tr(lang, `info:guide.sharing.topics.${k}.title`)));
      SHARING_TOPICS.forEach((k, i) => expect(items[i]).toHaveTextContent(tr(lang, `info:guide.sharing.topics.${k}.text`)));
      for (const s of GUIDE_SAYS[lang]) expect(section.textContent).toMatch(s);
    });

    it(`${lang}: names the controls as the app labels them`, () => {
      const topic = (k: (typeof SHARING_TOPICS)[number], part: 'title' | 'text') => tr(lang, `info:guide.sharing.topics.${k}.${part}`);
      expect(topic('who', 'title')).toBe(tr(lang, 'reminders:assign.label'));
      expect(topic('turns', 'title')).toBe(tr(lang, 'reminders:assign.rotate'));
      expect(topic('turns', 'text')).toContain(tr(lang, 'reminders:assign.rotate'));
      expect(topic('invite', 'text')).toContain(tr(lang, 'lists:switcher.manage'));
      expect(topic('invite', 'text')).toContain(tr(lang, 'lists:people.toggle_one', { count: 1 }));
      expect(topic('join', 'text')).toContain(tr(lang, 'lists:invite.accept'));
      expect(topic('snooze', 'text')).toContain(tr(lang, 'reminders:details.sendNow'));
      expect(topic('who', 'text')).toContain(lang === 'ja' ? tr(lang, 'settings:hideContent') : 'hiding content');
    });
  }
});

describe('the FAQ on shared lists', () => {
  for (const lang of LANGS) {
    it(`${lang}: a group of four questions: sharing, who is notified, someone else completing, who can see`, async () => {
      renderApp(path(lang, '/faq'));
      const heading = await screen.findByRole('heading', { level: 2, name: FAQ[lang].group });
      const group = heading.closest('section')!;
      const questions = [...group.querySelectorAll('summary')].map((s) => s.textContent);
      expect(questions).toEqual(FAQ[lang].questions);
      for (const s of FAQ[lang].says) expect(group.textContent).toMatch(s);
      // before data and privacy, after notifications
      const groups = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
      expect(groups.indexOf(FAQ[lang].group)).toBe(groups.length - 2);
    });
  }
});
