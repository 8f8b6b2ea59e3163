import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';

interface Faq {
  q: string;
  a: string[];
}

export default function FaqPage() {
  const { t } = useTranslation('info');
  const groups = t('faq.groups', { returnObjects: true }) as { title: string; items: Faq[] }[];
  return (
    <article className="info-page narrow">
      <h1>{t('faq.title')}</h1>
      <p className="muted">{t('faq.intro')}</p>
      {Array.isArray(groups) &&
        groups.map((g) => (
          <section key={g.title}>
            <h2>{g.title}</h2>
            {g.items.map((f) => (
              <details key={f.q} className="faq-item">
                <summary>{f.q}</summary>
                {f.a.map((p, i) => (
                  <p key={i}>{p}</p>
                ))}
              </details>
            ))}
          </section>
        ))}
      <p>
        <LangLink to="/guide">{t('faq.seeGuide')}</LangLink>
      </p>
    </article>
  );
}
