import { useTranslation } from 'react-i18next';

/** The guide's topics on sharing a list (decisions.md "Households"), in the order they are read. */
export const SHARING_TOPICS = ['invite', 'join', 'who', 'turns', 'done', 'snooze', 'leave'] as const;

/**
 * How a shared list works, for the guide: inviting and joining, who is reminded and taking
 * turns, Complete by one for everyone, a snooze for the one who snoozed, leaving.
 */
export function SharingGuide() {
  const { t } = useTranslation('info');
  return (
    <section id="sharing" aria-labelledby="guide-sharing">
      <h2 id="guide-sharing">{t('guide.sharing.title')}</h2>
      <p>{t('guide.sharing.intro')}</p>
      <ul className="guide-sharing">
        {SHARING_TOPICS.map((k) => (
          <li key={k}>
            <strong>{t(`guide.sharing.topics.${k}.title`)}</strong> — {t(`guide.sharing.topics.${k}.text`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
