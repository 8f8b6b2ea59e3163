import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import useSWR from 'swr';
import { LangLink } from '../../components/LangLink';
import { Spinner } from '../../components/Spinner';
import { api, isApiError } from '../../lib/api';
import type { Lang } from '../../lib/lang';
import { swrKeys } from '../../lib/swrKeys';
import type { AdminUsersPage as UsersAnswer } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import { useDates } from '../../shared/useDates';
import { AdminOnly } from './AdminOnly';
import { pageInfo, readPage, USERS_PER_PAGE } from './userPaging';
import './adminUsers.css';

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };
const NONE = '—';

/** Numbers in the page's language. */
function countFormat(lang: Lang) {
  const count = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 0 });
  return (n: number) => count.format(n);
}

/** /admin/users: every account with its reminder counts and last activity (never reminder contents); for admins only. */
export default function AdminUsersPage() {
  return (
    <AdminOnly>
      <AdminUsers />
    </AdminOnly>
  );
}

function AdminUsers() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  // useLocation/useNavigate rather than useSearchParams: the router's code is in the initial JS
  // for /, and useSearchParams would add to it.
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const page = readPage(new URLSearchParams(search).get('page'));
  const { data, error, isLoading, isValidating, mutate } = useSWR(swrKeys.adminUsers(page, USERS_PER_PAGE), () => api.admin.users(page, USERS_PER_PAGE), {
    keepPreviousData: true,
  });
  // With keepPreviousData, `data` is the last page shown until the asked-for page arrives.
  const current = data && data.page === page ? data : undefined;

  function goTo(next: number) {
    const q = new URLSearchParams(search);
    if (next <= 1) q.delete('page');
    else q.set('page', String(next));
    const qs = q.toString();
    navigate({ search: qs ? `?${qs}` : '', hash });
  }

  // The server has the last word on who is an admin: refused, the page shows no admin links.
  const forbidden = !current && isApiError(error, 'FORBIDDEN');
  let body;
  if (error && !current) {
    body = (
      <div className="notice" role="alert">
        <p>{forbidden ? t('forbidden') : t('loadFailed')}</p>
        {!forbidden && (
          <button type="button" className="button secondary small" onClick={() => void mutate()} disabled={isValidating}>
            {t('userList.retry')}
          </button>
        )}
      </div>
    );
  } else if (!data) {
    body = isLoading ? <Spinner /> : null;
  } else {
    body = <UsersView data={data} pending={!current} lang={lang} onPage={goTo} />;
  }

  return (
    <div className="admin-users">
      {!forbidden && (
        <nav className="row" aria-label={t('title')}>
          <LangLink to="/admin/dashboard">{t('userList.back')}</LangLink>
        </nav>
      )}
      <h1>{t('users')}</h1>
      {body}
    </div>
  );
}

function UsersView({ data, pending, lang, onPage }: { data: UsersAnswer; pending: boolean; lang: Lang; onPage: (page: number) => void }) {
  const { t } = useTranslation('admin');
  // Times in the viewer's zone (their settings, else the browser's), so no zone is named per row.
  const dates = useDates();
  const zone = dates.userZone;
  const count = useMemo(() => countFormat(lang), [lang]);
  const f = { count, dateTime: (iso: string) => dates.when(iso) || NONE, date: (iso: string) => dates.day(iso, false) || NONE };
  const info = pageInfo(data);

  if (info.total === 0) return <p className="muted">{t('userList.empty')}</p>;

  return (
    <>
      <p className="muted small" aria-live="polite">
        {info.from > 0 ? t('userList.range', { from: f.count(info.from), to: f.count(info.to), total: f.count(info.total) }) : t('userList.total', { total: f.count(info.total) })}{' '}
        {t('userList.timeZone', { zone })}
      </p>
      {data.users.length === 0 ? (
        <div className="notice">
          <p>{t('userList.emptyPage')}</p>
          <button type="button" className="button secondary small" onClick={() => onPage(1)}>
            {t('userList.firstPage')}
          </button>
        </div>
      ) : (
        // Below 600 px the rows are shown as stacked cards (adminUsers.css); the explicit roles keep
        // the table's semantics, which browsers drop once table parts are no longer display: table-*.
        <div className="table-wrap users-table-wrap" role="region" aria-labelledby="admin-users-caption" tabIndex={0}>
          <table className="users-table" role="table" aria-busy={pending}>
            <caption id="admin-users-caption" className="sr-only">
              {t('userList.caption', { page: f.count(info.page), pages: f.count(info.pages) })}
            </caption>
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  {t('userList.columns.email')}
                </th>
                <th scope="col" role="columnheader" className="num">
                  {t('userList.columns.activeReminders')}
                </th>
                <th scope="col" role="columnheader" className="num">
                  {t('userList.columns.archivedReminders')}
                </th>
                <th scope="col" role="columnheader">
                  {t('userList.columns.lastActivity')}
                </th>
                <th scope="col" role="columnheader">
                  {t('userList.columns.created')}
                </th>
                <th scope="col" role="columnheader">
                  {t('userList.columns.status')}
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {data.users.map((u) => (
                <tr key={u.id} role="row" data-user-id={u.id}>
                  <th scope="row" role="rowheader" className="user-email">
                    {u.email}
                  </th>
                  <td role="cell" className="num" data-label={t('userList.columns.activeReminders')}>
                    {f.count(u.active_reminders)}
                  </td>
                  <td role="cell" className="num" data-label={t('userList.columns.archivedReminders')}>
                    {f.count(u.archived_reminders)}
                  </td>
                  <td role="cell" className="nowrap" data-label={t('userList.columns.lastActivity')}>
                    <time dateTime={u.last_active_at}>{f.dateTime(u.last_active_at)}</time>
                  </td>
                  <td role="cell" className="nowrap" data-label={t('userList.columns.created')}>
                    <time dateTime={u.created_at}>{f.date(u.created_at)}</time>
                  </td>
                  <td role="cell" className="user-status">
                    <span className={u.is_active ? 'badge' : 'badge muted'}>{u.is_active ? t('userList.active') : t('userList.inactive')}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label={t('userList.pagination')}>
        <button type="button" className="button secondary small" disabled={!info.hasPrev || pending} onClick={() => onPage(Math.min(info.page - 1, info.pages))}>
          {t('userList.prev')}
        </button>
        <span className="pager-status" aria-live="polite">
          {pending ? t('userList.loadingPage') : t('userList.page', { page: f.count(info.page), pages: f.count(info.pages) })}
        </span>
        <button type="button" className="button secondary small" disabled={!info.hasNext || pending} onClick={() => onPage(info.page + 1)}>
          {t('userList.next')}
        </button>
      </nav>
    </>
  );
}
