import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SWRResponse } from 'swr';
import { Spinner } from '../../../components/Spinner';
import type { Reminder } from '../../../lib/types';
import { ARCHIVED_PAGE_SIZE, hasMoreAfter, useArchivedPage, type ArchivedFilter, type ArchivedPage } from '../useArchived';

type Page = SWRResponse<ArchivedPage>;

/** One page's rows (each page is its own request, cached and revalidated on its own). */
function PageRows({ offset, filter, row }: { offset: number; filter: ArchivedFilter; row: (r: Reminder) => ReactNode }) {
  const page = useArchivedPage(offset, filter);
  return <>{page.data?.items.map(row)}</>;
}

/**
 * The completed tab: the archived reminders, newest first, `pages` pages of 50, and "Show more"
 * while the server's total says there are more. `first` and `last` are the first and last pages
 * shown (the page holds them: the first also gives the count), of the list and search `filter`;
 * `empty` replaces the empty state when a filter finds none.
 */
export function ArchivedList({
  first,
  last,
  lastOffset,
  pages,
  filter,
  row,
  onMore,
  empty,
}: {
  first: Page;
  last: Page;
  lastOffset: number;
  pages: number;
  filter: ArchivedFilter;
  row: (r: Reminder) => ReactNode;
  onMore: () => void;
  empty?: ReactNode;
}) {
  const { t } = useTranslation('reminders');
  if (!first.data) {
    return first.error ? (
      <p className="field-error" role="alert">
        {t('errors.loadFailed')}
      </p>
    ) : (
      <Spinner />
    );
  }
  if (first.data.items.length === 0) {
    return (
      <div className="empty-state card">{empty ?? <p>{t('emptyCompleted')}</p>}</div>
    );
  }
  const loadingMore = !last.data && !last.error;
  const shown = last.data ? lastOffset + last.data.items.length : lastOffset;
  const total = first.data.total;
  const more = last.data ? hasMoreAfter(last.data, lastOffset) : true;
  return (
    <>
      <p className="hint">{t('archived.kept')}</p>
      <ul className="reminder-list">
        {Array.from({ length: pages }, (_, i) => (
          <PageRows key={i} offset={i * ARCHIVED_PAGE_SIZE} filter={filter} row={row} />
        ))}
      </ul>
      {total !== null && (
        <p className="muted small" aria-live="polite">
          {t('archived.shown', { shown, total })}
        </p>
      )}
      {last.error && !last.data && (
        <p className="field-error" role="alert">
          {t('errors.loadFailed')}
        </p>
      )}
      {more && (
        <button
          type="button"
          className="button secondary block"
          aria-disabled={loadingMore}
          onClick={() => {
            if (loadingMore) return;
            if (last.error && !last.data) void last.mutate();
            else onMore();
          }}
        >
          {loadingMore ? t('archived.loading') : t('archived.showMore')}
        </button>
      )}
    </>
  );
}
