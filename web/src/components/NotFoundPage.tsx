import { useTranslation } from 'react-i18next';
import { useNavigate } from '../lib/router';
import { useLocalizedPath } from '../lib/useLang';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  return (
    <section className="card center narrow">
      <p className="big-code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <div className="row center">
        <button type="button" className="button secondary" onClick={() => navigate(-1)}>
          {t('notFound.goBack')}
        </button>
        <button type="button" className="button primary" onClick={() => navigate(lp('/'))}>
          {t('notFound.goHome')}
        </button>
      </div>
    </section>
  );
}
