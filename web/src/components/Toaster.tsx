import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, getToasts, subscribeToasts, type Toast } from './toast';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  useEffect(() => {
    const h = setTimeout(() => dismissToast(toast.id), toast.duration);
    return () => clearTimeout(h);
  }, [toast.id, toast.duration]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      <button type="button" className="toast-close" aria-label={t('actions.close')} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
