import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { LogoMark } from '../../components/Logo';

const FEATURES = ['audio', 'schedule', 'interactive'] as const;
// Simple line icons (24×24), drawn in the brand colour.
const FEATURE_ICONS: Record<(typeof FEATURES)[number], string> = {
  audio: 'M6 9a6 6 0 0 1 12 0v4l2 3H4l2-3zM10 19a2 2 0 0 0 4 0',
  schedule: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 2',
  interactive: 'M4 12l5 5L20 6',
};

export function SignedOutHome() {
  const { t } = useTranslation('home');
  return (
    <div className="home">
      <section className="hero">
        <LogoMark size={72} />
        <h1>{t('tagline')}</h1>
        <p className="subtitle">{t('subtitle')}</p>
        <div className="row center">
          <LangLink to="/login" className="button primary large">
            {t('getStarted')}
          </LangLink>
          <LangLink to="/faq" className="button secondary large">
            {t('learnMore')}
          </LangLink>
        </div>
      </section>
      <section className="features" aria-labelledby="features-title">
        <h2 id="features-title" className="sr-only">
          {t('featuresTitle')}
        </h2>
        {FEATURES.map((f) => (
          <article key={f} className="card feature">
            <svg className="feature-icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
              <path d={FEATURE_ICONS[f]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <h3>{t(`features.${f}.title`)}</h3>
            <p>{t(`features.${f}.text`)}</p>
          </article>
        ))}
      </section>
      <p className="center">
        <LangLink to="/guide">{t('howItWorks')}</LangLink>
      </p>
    </div>
  );
}
