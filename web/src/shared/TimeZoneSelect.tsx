import { useEffect, useId, useMemo, useState, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMON_ZONES, UTC_NAME_EN, cityOfId, utcOffsetText } from '../components/commonZones';
import type { ZoneOption } from '../components/zoneCatalog';
import { isImeComposing } from '../lib/ime';
import { useLang } from '../lib/useLang';
import { useNow } from '../lib/useNow';
import { canonicalZone, deviceZone } from '../lib/zoneIds';
import { isValidTimeZone, offsetMinutes } from '../lib/zonedTime';
import { useUserZone } from './useDates';
import './timeZoneSelect.css';

type Catalog = typeof import('../components/zoneCatalog');
let catalogModule: Catalog | undefined;
let catalogLoad: Promise<Catalog> | undefined;
/** The list and the name table load the first time a picker opens (or names a rare zone). */
function loadCatalog(): Promise<Catalog> {
  catalogLoad ??= import('../components/zoneCatalog').then((m) => (catalogModule = m));
  return catalogLoad;
}

const PAGE = 10;

/** `東京 (UTC+09:00)`: from the common table, else from the loaded names, else the id's city. */
function zoneLabel(value: string, lang: 'ja' | 'en', now: number, catalog: Catalog | undefined): string {
  const zone = canonicalZone(value);
  if (!isValidTimeZone(zone)) return value;
  const name = catalog
    ? catalog.zoneName(zone, lang)
    : lang === 'ja'
      ? (COMMON_ZONES[zone] ?? cityOfId(zone))
      : zone === 'UTC'
        ? UTC_NAME_EN
        : cityOfId(zone);
  return `${name} (${utcOffsetText(offsetMinutes(now, zone))})`;
}

/**
 * The time zone picker of the reminder dialog and the settings: an ARIA combobox. Closed, it
 * shows the zone's city and UTC offset; typing or ArrowDown opens a list (the user's and
 * common zones first) that narrows as one types (東京, "new york", "+9"); arrows move, Enter
 * picks, Escape closes. Offers and emits canonical IANA names only.
 */
export function TimeZoneSelect({
  value,
  onChange,
  ...rest
}: { value: string; onChange: (zone: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const { t, ready } = useTranslation('zones', { useSuspense: false });
  const lang = useLang();
  const userZone = useUserZone();
  const now = useNow(60_000);
  const listId = useId();
  const [catalog, setCatalog] = useState(catalogModule);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // null until the arrows move: then the current zone (no search) or the best match (search).
  const [cursor, setCursor] = useState<number | null>(null);

  const zone = canonicalZone(value);
  // A zone outside the common table has its name in the table that the list uses.
  const needsNames = !catalog && !(zone in COMMON_ZONES) && isValidTimeZone(zone);
  useEffect(() => {
    if (!open && !needsNames) return;
    let live = true;
    void loadCatalog().then((m) => live && setCatalog(m));
    return () => {
      live = false;
    };
  }, [open, needsNames]);

  const all = useMemo(() => (catalog && open ? catalog.zoneCatalog(lang, now, [userZone, deviceZone()]) : []), [catalog, open, lang, now, userZone]);
  const options = useMemo(() => (catalog ? catalog.searchZones(all, query) : []), [catalog, all, query]);
  const active = cursor ?? (query === '' ? Math.max(0, options.findIndex((o) => o.id === zone)) : 0);
  const activeOption = open ? options[active] : undefined;
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    if (open) document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active, listId, options]);

  function openList(nextQuery: string) {
    setQuery(nextQuery);
    setOpen(true);
    setCursor(null);
  }

  function close() {
    setOpen(false);
    setQuery('');
  }

  function choose(option: ZoneOption | undefined) {
    if (!option) return;
    close();
    if (option.id !== value) onChange(option.id);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (isImeComposing(e)) return;
    const move = (to: number) => {
      e.preventDefault();
      if (!open) return openList('');
      if (options.length) setCursor(Math.min(options.length - 1, Math.max(0, to)));
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(e.altKey ? active : active + 1);
      case 'ArrowUp':
        return move(active - 1);
      case 'PageDown':
        return open ? move(active + PAGE) : undefined;
      case 'PageUp':
        return open ? move(active - PAGE) : undefined;
      case 'Enter':
        if (!open) return;
        // Picks; never submits the form around the picker.
        e.preventDefault();
        return choose(activeOption);
      case 'Escape':
        if (!open) return;
        // Closes the list only, not the dialog around it.
        e.preventDefault();
        e.stopPropagation();
        return close();
      case 'Tab':
        return open ? close() : undefined;
    }
  }

  const label = zoneLabel(value, lang, now, catalog);
  const status = !open ? '' : !catalog || !ready ? t('loading') : options.length === 0 ? t('noMatch') : '';

  return (
    <div className="zone-select">
      <input
        {...rest}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        // While searching the current zone stays visible as the placeholder.
        value={open ? query : label}
        placeholder={open ? label : undefined}
        onChange={(e) => openList(e.target.value)}
        onClick={() => !open && openList('')}
        onFocus={(e) => e.target.select()}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {open && (
        // mousedown's default would move the focus out of the input before an option is picked.
        <div className="zone-popup" onMouseDown={(e) => e.preventDefault()}>
          {status && (
            <p className="zone-status muted" aria-hidden="true">
              {status}
            </p>
          )}
          <div id={listId} role="listbox" aria-label={ready ? t('listLabel') : undefined} aria-busy={!catalog} className="zone-list">
            {groups(options, query === '').map((g) => (
              <ZoneGroup key={g.key} id={`${listId}-${g.key}`} label={g.key === 'flat' ? null : t(g.key)}>
                {g.options.map(({ option, index }) => (
                  <div
                    key={option.id}
                    id={optionId(index)}
                    role="option"
                    aria-selected={index === active}
                    className={`zone-option${index === active ? ' active' : ''}${option.id === zone ? ' current' : ''}`}
                    onClick={() => choose(option)}
                  >
                    <span>
                      {option.name} ({option.offset})
                    </span>
                    <span className="zone-id">{option.id}</span>
                  </div>
                ))}
              </ZoneGroup>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** Unsearched, the list has two groups: the user's and common zones, then all of them. */
function groups(options: ZoneOption[], split: boolean) {
  const indexed = options.map((option, index) => ({ option, index }));
  if (!split || !options.some((o) => o.common)) return [{ key: 'flat' as const, options: indexed }];
  return [
    { key: 'common' as const, options: indexed.filter((o) => o.option.common) },
    { key: 'all' as const, options: indexed.filter((o) => !o.option.common) },
  ];
}

function ZoneGroup({ id, label, children }: { id: string; label: string | null; children: ReactNode }) {
  if (label === null) return <>{children}</>;
  return (
    <div role="group" aria-labelledby={id}>
      <div role="presentation" id={id} className="zone-group">
        {label}
      </div>
      {children}
    </div>
  );
}
