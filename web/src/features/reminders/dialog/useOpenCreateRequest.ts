import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../../lib/router';
import { toast } from '../../../components/toast';
import { OPEN_CREATE_DELAY_MS, OPEN_CREATE_DIALOG, QUICK_ADD_PREFILL, type QuickAddPrefill } from '../../../shared/navState';

export interface OpenCreateRequestOptions {
  /**
   * The list and the settings are known (loaded or failed). The list must be: at the limit the
   * request shows the limit instead of the form. So must the settings: a new reminder starts in
   * the account's zone, not the device's.
   */
  ready: boolean;
  /** at the 100-reminder limit: the request says so instead of opening the form */
  atLimit: boolean;
  openCreate: () => void;
  /** quick add's phrase came with the request: the dialog opens filled in for confirmation */
  openQuickAdd: (prefill: QuickAddPrefill) => void;
}

/**
 * The request to open the create dialog on arrival: the header's "create" button (and the
 * dashboard's, and quick add) navigates here with `OPEN_CREATE_DIALOG` in the navigation state;
 * `?new=1` does the same (the manifest's "new reminder" shortcut). Once `ready`, the dialog opens
 * `OPEN_CREATE_DELAY_MS` (100 ms) later, with what the page holds then; the request then leaves
 * the address (`new` dropped, the state cleared), so a reload or Back does not open it again.
 */
export function useOpenCreateRequest({ ready, atLimit, openCreate, openQuickAdd }: OpenCreateRequestOptions): void {
  const { t } = useTranslation('reminders');
  const location = useLocation();
  const navigate = useNavigate();
  const openRequest =
    (location.state as Record<string, unknown> | null)?.[OPEN_CREATE_DIALOG] ??
    (new URLSearchParams(location.search).get('new') === '1' ? 'query' : undefined);
  // The timer reads what is current when it fires, not what was when it was set.
  const latest = useRef({ openCreate, openQuickAdd, location, navigate, atLimit });
  latest.current = { openCreate, openQuickAdd, location, navigate, atLimit };
  useEffect(() => {
    if (!openRequest || !ready) return;
    const h = setTimeout(() => {
      const { openCreate: open, openQuickAdd: openFilled, location: here, navigate: go, atLimit: full } = latest.current;
      // Quick add's phrase, when it sent one: the dialog opens filled in for confirmation.
      const prefill = (here.state as Record<string, unknown> | null)?.[QUICK_ADD_PREFILL] as QuickAddPrefill | undefined;
      if (full) toast.error(t('errors.limit'));
      else if (prefill) openFilled(prefill);
      else open();
      const params = new URLSearchParams(here.search);
      params.delete('new');
      const qs = params.toString();
      go(here.pathname + (qs ? `?${qs}` : ''), { replace: true, state: null });
    }, OPEN_CREATE_DELAY_MS);
    return () => clearTimeout(h);
  }, [openRequest, ready, t]);
}
