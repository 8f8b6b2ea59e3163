import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { LogoMark } from '../../components/Logo';
import { PageFallback } from '../../components/Spinner';
import { useAuth } from '../auth/authStore';

const Dashboard = lazy(() => import('../reminders/Dashboard'));

export default function HomePage() {
  const auth = useAuth();
  if (auth.user) return <Dashboard />;
  if (auth.status === 'checking') return <PageFallback />;
  return <SignedOutHome />;
}

const FEATURES = ['audio', 'schedule', 'interactive'] as const;
const FEATURE_ICONS: Record<(typeof FEATURES)[number], string> = { audio: '🔔', schedule: '⏱', interactive: '✅' };

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
            <span className="feature-icon" aria-hidden="true">
              {FEATURE_ICONS[f]}
            </span>
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
