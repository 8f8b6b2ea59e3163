import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** The reminders page's search of titles and descriptions (client-side, so it works offline), with a button that clears it. */
export function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('reminders');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="search-box" role="search">
      <label htmlFor={id} className="sr-only">
        {t('search.label')}
      </label>
      <input
        ref={input}
        id={id}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={t('search.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
      />
      {value !== '' && (
        <button
          type="button"
          className="icon-button"
          aria-label={t('search.clear')}
          onClick={() => {
            onChange('');
            input.current?.focus();
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
