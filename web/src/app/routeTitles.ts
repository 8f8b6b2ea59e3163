/**
 * Each page's document title, "<page> | Hibiki" in the page's language, from the page's own
 * heading text. Loaded after the page shows (useDocumentTitle): the table stays out of the
 * first paint's bundle.
 */
import { i18n } from '../i18n';

/** The app's name in every title; the same in both languages. */
export const APP_TITLE = 'Hibiki';

type TextId = `${string}:${string}`;

/** Route path (as in router.tsx ROUTES, without /en) → the text of its title. */
export const ROUTE_TITLES: Readonly<Record<string, TextId>> = {
  login: 'auth:title',
  'auth/callback': 'callback:title',
  invite: 'lists:invite.title',
  reminders: 'reminders:title',
  settings: 'settings:title',
  'settings/delete-account': 'settings:delete.title',
  faq: 'info:faq.title',
  guide: 'info:guide.title',
  privacy: 'info:privacy.title',
  terms: 'info:terms.title',
  'commercial-transaction-act': 'info:commercial.title',
  admin: 'admin:title',
  'admin/dashboard': 'admin:title',
  'admin/users': 'admin:users',
  'test-email': 'admin:testEmail.title',
  status: 'status:title',
  't/:secret': 'automations:page.title',
  share: 'automations:share.title',
};

/** Whether a route's path (`t/:secret`: a `:name` segment stands for any one) matches `path`. */
function matches(route: string, path: string): boolean {
  const want = route.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((w, i) => w === have[i] || (w.startsWith(':') && have[i] !== ''));
}

const EN_PREFIX = /^\/en(?=\/|$)/;

/** The title text of a path: home (dashboard when signed in), a route, or not found. */
export function titleTextFor(pathname: string, signedIn: boolean): TextId {
  const path = pathname.replace(EN_PREFIX, '').replace(/^\/+|\/+$/g, '');
  if (path === '') return signedIn ? 'reminders:dashboard.title' : 'home:tagline';
  const route = Object.keys(ROUTE_TITLES).find((r) => matches(r, path));
  return route ? ROUTE_TITLES[route]! : 'common:notFound.title';
}

export async function documentTitleFor(pathname: string, signedIn: boolean): Promise<string> {
  const id = titleTextFor(pathname, signedIn);
  const ns = id.slice(0, id.indexOf(':'));
  // (not lib/lang's langFromPath: importing it here would split it out of the first paint's chunk)
  const lang = EN_PREFIX.test(pathname) ? 'en' : 'ja';
  // The path's language, even before i18next has switched to it.
  await i18n.loadNamespaces(ns);
  if (!i18n.hasResourceBundle(lang, ns)) await i18n.loadLanguages(lang);
  const page = i18n.getFixedT(lang, ns)(id.slice(ns.length + 1));
  return `${page} | ${APP_TITLE}`;
}
