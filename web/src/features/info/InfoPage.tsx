import { useTranslation } from 'react-i18next';
import { OperatorDetails } from './OperatorDetails';

export interface InfoSection {
  heading: string;
  body: string[];
}

/** Renders a document from the `info` namespace: {title, updated?, intro?, sections: [{heading, body[]}]} */
export function InfoDocument({ doc }: { doc: 'privacy' | 'terms' | 'commercial' }) {
  const { t } = useTranslation('info');
  const sections = t(`${doc}.sections`, { returnObjects: true }) as InfoSection[];
  return (
    <article className="info-page narrow">
      <h1>{t(`${doc}.title`)}</h1>
      <p className="muted">{t(`${doc}.intro`)}</p>
      {doc === 'commercial' && <OperatorDetails doc={doc} />}
      {Array.isArray(sections) &&
        sections.map((s) => (
          <section key={s.heading}>
            <h2>{s.heading}</h2>
            {s.body.map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </section>
        ))}
      {doc !== 'commercial' && <OperatorDetails doc={doc} />}
    </article>
  );
}
