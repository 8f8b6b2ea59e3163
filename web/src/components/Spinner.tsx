import { useTranslation } from 'react-i18next';

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label ?? t('status.loading')}</span>
    </div>
  );
}

/** Suspense fallback used while a lazy page or its translations load. */
export function PageFallback() {
  return (
    <div className="page-fallback" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
