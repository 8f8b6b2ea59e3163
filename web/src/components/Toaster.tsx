import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../lib/router';
import { subscribeDialogs, topToastSlot } from './dialogStack';
import { dismissToast, getToasts, routeChanged, subscribeToasts, type Toast } from './toast';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  useEffect(() => {
    const h = setTimeout(() => dismissToast(toast.id), toast.duration);
    return () => clearTimeout(h);
  }, [toast.id, toast.duration]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            dismissToast(toast.id);
            toast.action?.run();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="toast-close" aria-label={t('actions.close')} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * The toast (one at a time: a newer one replaces it, `toast.ts`): at the bottom (on the right on wide screens), and inside the open dialog (above its
 * buttons) while one is open, so they never cover it. Each goes after its duration (5 s by
 * default). A route change clears the previous page's toasts. Not top right as the seed had them:
 * there they cover the page's own actions beside its heading (Create reminder) for 5 s.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const dialogSlot = useSyncExternalStore(subscribeDialogs, topToastSlot, () => null);
  const { pathname } = useLocation();
  // A layout effect: it runs before the new page's effects, whose toasts belong to the new page.
  useLayoutEffect(() => routeChanged(pathname), [pathname]);
  const list = (
    <div className={dialogSlot ? 'toaster in-dialog' : 'toaster'} aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
  return dialogSlot ? createPortal(list, dialogSlot) : list;
}
