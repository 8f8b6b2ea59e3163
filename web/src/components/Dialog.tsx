import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isTopDialog, pushDialog, removeDialog } from './dialogStack';
import { composing, restoreFocus, trapTab } from './focus';

/**
 * An accessible modal dialog. On open, focus goes to its title (a screen reader reads the
 * dialog's name first; Tab then reaches the close button and the fields). Tab and Shift+Tab stay
 * inside; Escape closes (not while an IME composes), only the topmost of nested dialogs; on close
 * focus returns to what opened it, or to the page's heading when that is gone.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** up to 880 px on large screens (the reminder form shows its preview beside the fields) */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const toastSlot = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const id = Symbol('dialog');
    const opener = document.activeElement;
    pushDialog({ id, toastSlot: toastSlot.current });
    heading.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (!isTopDialog(id)) return;
      // A widget inside that uses Escape itself (a combobox's list) calls preventDefault.
      if (e.key === 'Escape' && !composing(e) && !e.defaultPrevented) {
        e.preventDefault();
        onCloseRef.current();
      } else if (e.key === 'Tab' && panel.current) {
        trapTab(e, panel.current);
      }
    };
    // Focus that got out anyway (a click on the page behind, a script) comes back to the title.
    const onFocusIn = (e: FocusEvent) => {
      if (isTopDialog(id) && panel.current && e.target instanceof Node && !panel.current.contains(e.target)) heading.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      removeDialog(id);
      restoreFocus(opener);
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId} ref={panel}>
        <div className="dialog-header">
          <h2 id={titleId} ref={heading} tabIndex={-1}>
            {title}
          </h2>
          <button type="button" className="dialog-close icon-button" aria-label={t('actions.close')} onClick={onClose}>
            ×
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {/* Toasts show here while this dialog is on top (above its buttons, never over them). */}
        <div className="dialog-toasts" ref={toastSlot} />
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
    </div>
  );
}
