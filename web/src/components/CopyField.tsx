import { useRef } from 'react';
import { toast } from './toast';

/**
 * A value shown once (a secret, a private link, a code): its label, the value in a read-only
 * field that selects itself on focus, and Copy. Copy writes the clipboard and says so; where
 * the browser allows no clipboard it leaves the value selected for the person to copy and says
 * that. Texts come from the caller's namespace; `describedBy` names the caller's "shown only
 * now" notice.
 */
export function CopyField({
  id,
  label,
  value,
  type = 'text',
  texts,
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  type?: 'text' | 'url';
  texts: { copy: string; copied: string; copyFailed: string };
  describedBy?: string;
}) {
  const field = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(texts.copied);
    } catch {
      field.current?.select();
      toast.error(texts.copyFailed);
    }
  }

  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          ref={field}
          type={type}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.target.select()}
          aria-describedby={describedBy}
        />
        <button type="button" className="button primary" onClick={() => void copy()}>
          {texts.copy}
        </button>
      </div>
    </>
  );
}
