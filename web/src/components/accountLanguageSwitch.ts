/**
 * The EN/JA switch's account part (loaded on use, signed in and online): the account's language
 * follows the page's, so email and push follow the language the person reads. When that changed
 * the account's language, a toast says so, in the page's new language, with Undo. Undo puts back
 * only the account's language: the page stays in the language the person chose.
 */
import { i18n } from '../i18n';
import { saveAccountLanguage } from '../lib/accountLanguage';
import { api } from '../lib/api';
import type { Lang } from '../lib/lang';
import { toast } from './toast';

// One change at a time, in the order of the presses (EN then JA quickly ends in JA).
let queue: Promise<unknown> = Promise.resolve();
function inTurn(job: () => Promise<void>): Promise<void> {
  const run = queue.then(job);
  queue = run.catch(() => {});
  return run;
}

/** The page's texts for the toast (settings is not bundled with the first screen). */
async function textsIn(lang: Lang) {
  if (!i18n.hasResourceBundle(lang, 'settings')) await i18n.reloadResources([lang], ['settings']);
  return i18n.getFixedT(lang, 'settings');
}

export function switchAccountLanguage(next: Lang): Promise<void> {
  return inTurn(async () => {
    // What the account reads now: only a change is announced (and saved).
    const before = (await api.settings.get().catch(() => null))?.language;
    if (before === next) return;
    await saveAccountLanguage(next);
    if (before !== 'ja' && before !== 'en') return; // nothing known to go back to
    const t = await textsIn(next);
    toast.info(t('accountLanguage.changed'), {
      action: { label: t('accountLanguage.undo'), run: () => void undo(before, t) },
    });
  });
}

function undo(previous: Lang, t: Awaited<ReturnType<typeof textsIn>>): Promise<void> {
  return inTurn(async () => {
    try {
      await saveAccountLanguage(previous);
      toast.info(t('accountLanguage.undone'));
    } catch {
      toast.error(t('accountLanguage.undoFailed'));
    }
  });
}
