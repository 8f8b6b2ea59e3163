import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import { useLocalizedPath } from '../../lib/useLang';
import { setQuickAddDraft } from '../../shared/quickAddDraft';

const URL_IN_TEXT = /\bhttps?:\/\/\S+/i;

/**
 * What was shared to the installed app (the manifest's share_target: `?title=&text=&url=`) as
 * quick add's phrase and the reminder's description: title and text make the phrase; the link
 * (`url`, or the first link in the text, where Android apps put it) the description.
 */
export function sharedDraft(params: URLSearchParams): { phrase: string; note: string } {
  const title = (params.get('title') ?? '').trim();
  let text = (params.get('text') ?? '').trim();
  let note = (params.get('url') ?? '').trim();
  if (!note) {
    const found = URL_IN_TEXT.exec(text);
    if (found) {
      note = found[0];
      text = text.replace(found[0], '').replace(/\s+/g, ' ').trim();
    }
  }
  // Some apps send the title again at the start of the text.
  const parts = title && text.startsWith(title) ? [text] : [title, text];
  return { phrase: parts.filter(Boolean).join(' '), note };
}

/**
 * The share target (`/share`, signed in: the route is protected, so a visitor signs in first and
 * comes back here with the same query). It fills quick add and opens the reminders page with it;
 * nothing is saved until the person confirms in the create dialog.
 */
export default function SharePage() {
  const { t } = useTranslation('automations');
  // (not useSearchParams: the router's code is in the initial JS for /, and it would add to it)
  const { search } = useLocation();
  const navigate = useNavigate();
  const lp = useLocalizedPath();

  useEffect(() => {
    const { phrase, note } = sharedDraft(new URLSearchParams(search));
    setQuickAddDraft(phrase, note);
    navigate(lp('/reminders'), { replace: true });
  }, [search, navigate, lp]);

  return <p className="muted">{t('share.filling')}</p>;
}
