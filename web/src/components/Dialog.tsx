import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isTopDialog, pushDialog, removeDialog } from './dialogStack';
import { composing, restoreFocus, tabbables, trapTab } from './focus';

// The shown-once field is imported from here: the screens that show a secret all load the
// dialogs too, and one chunk is one name fewer in the first screen's table of lazy chunks.
export { CopyField } from './CopyField';

export interface DiscardTexts {
  title: string;
  text: string;
  /** the button that keeps the dialog open */
  keep: string;
  /** the button that discards the changes and closes */
  confirm: string;
}

/** The first field of the dialog's body (its name and the dialog's are read on focus). */
function firstField(body: HTMLElement | null): HTMLElement | undefined {
  return body ? tabbables(body).find((el) => el.matches('input, select, textarea')) : undefined;
}

/**
 * An accessible modal dialog. On open, focus goes to its first field, or to its title when it has
 * none (a screen reader reads the dialog's name either way). Tab and Shift+Tab stay inside;
 * Escape closes (not while an IME composes), only the topmost of nested dialogs; on close focus
 * returns to what opened it, or to the page's heading when that is gone. A dialog with unsaved
 * changes (`discard` given) asks before Escape, × or a click outside discard them; its own
 * Cancel button is the person's explicit choice and does not ask.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  wide = false,
  discard = null,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** up to 880 px on large screens (the reminder form shows its preview beside the fields) */
  wide?: boolean;
  /**
   * There are unsaved changes: closing other than by the dialog's own buttons asks first, in
   * these words (the caller's namespace has them: the common one is in the first screen's bundle).
   */
  discard?: DiscardTexts | null;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const toastSlot = useRef<HTMLDivElement>(null);
  const [asking, setAsking] = useState(false);
  // Closing by Escape, × or outside: with unsaved changes, the question first.
  const dismiss = () => (discard ? setAsking(true) : onClose());
  const dismissRef = useRef(dismiss);
  dismissRef.current = dismiss;

  useEffect(() => {
    if (!open) setAsking(false);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const id = Symbol('dialog');
    const opener = document.activeElement;
    pushDialog({ id, toastSlot: toastSlot.current });
    (firstField(body.current) ?? heading.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (!isTopDialog(id)) return;
      // A widget inside that uses Escape itself (a combobox's list) calls preventDefault.
      if (e.key === 'Escape' && !composing(e) && !e.defaultPrevented) {
        e.preventDefault();
        dismissRef.current();
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
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && dismiss()}>
      <div className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId} ref={panel}>
        <div className="dialog-header">
          <h2 id={titleId} ref={heading} tabIndex={-1}>
            {title}
          </h2>
          <button type="button" className="dialog-close icon-button" aria-label={t('actions.close')} onClick={dismiss}>
            ×
          </button>
        </div>
        <div className="dialog-body" ref={body}>
          {children}
        </div>
        {/* Toasts show here while this dialog is on top (above its buttons, never over them). */}
        <div className="dialog-toasts" ref={toastSlot} />
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
      {discard && (
        <Dialog
          open={asking}
          title={discard.title}
          onClose={() => setAsking(false)}
          footer={
            <>
              <button type="button" className="button secondary" onClick={() => setAsking(false)}>
                {discard.keep}
              </button>
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  setAsking(false);
                  onClose();
                }}
              >
                {discard.confirm}
              </button>
            </>
          }
        >
          <p>{discard.text}</p>
        </Dialog>
      )}
    </div>
  );
}

/**
 * A question before an act that cannot be undone (delete, end, remove): the dialog, its text,
 * a Cancel button and the act's button. While `busy`, neither button works and the dialog does
 * not close; the act's button is off while `disabled` (offline), and says why by
 * `describedBy`. Texts come from the caller's namespace.
 */
export function ConfirmDialog({
  open,
  title,
  cancel,
  confirm,
  onConfirm,
  onClose,
  busy = false,
  disabled = false,
  tone = 'danger',
  describedBy,
  children,
}: {
  open: boolean;
  title: string;
  /** the button that keeps things as they are */
  cancel: string;
  /** the act's button */
  confirm: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  disabled?: boolean;
  /** `danger` for what is lost; `primary` for an act that replaces (a new address) */
  tone?: 'danger' | 'primary';
  describedBy?: string;
  children: ReactNode;
}) {
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <Dialog
      open={open}
      title={title}
      onClose={close}
      footer={
        <>
          <button type="button" className="button secondary" onClick={close} disabled={busy}>
            {cancel}
          </button>
          <button type="button" className={`button ${tone}`} onClick={onConfirm} disabled={busy || disabled} aria-describedby={describedBy}>
            {confirm}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
