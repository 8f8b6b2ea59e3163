import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Route, Routes } from '../lib/router';
import LoginPage from '../features/auth/LoginPage';
import { afterFirstPaint } from '../lib/firstPaint';
import { Layout } from './Layout';
import HomePage from './routes/HomePage';

// Home and login are in the initial bundle; every other page loads on demand. A page that
// shows another feature's parts is composed in ./routes (features do not import each other).
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

// The sign-in guard of the protected pages: its own chunk, fetched after the first paint beside
// the session check (which a protected page waits for anyway), so it costs the first paint nothing.
const loadGuard = () => import('../features/auth/ProtectedRoute').then((m) => ({ default: m.ProtectedRoute }));
const ProtectedRoute = lazy(loadGuard);
afterFirstPaint(() => void loadGuard());

const AuthCallbackPage = page(() => import('../features/auth/AuthCallbackPage'));
const RemindersPage = page(() => import('./routes/RemindersRoute'));
const SettingsPage = page(() => import('./routes/SettingsRoute'));
const DeleteAccountPage = page(() => import('../features/settings/DeleteAccountPage'));
const FaqPage = page(() => import('../features/info/FaqPage'));
const GuidePage = page(() => import('./routes/GuidePage'));
const PrivacyPage = page(() => import('../features/info/PrivacyPage'));
const TermsPage = page(() => import('../features/info/TermsPage'));
const CommercialPage = page(() => import('../features/info/CommercialTransactionActPage'));
const AdminPage = page(() => import('../features/admin/AdminPage'));
const AdminUsersPage = page(() => import('../features/admin/AdminUsersPage'));
const TestEmailPage = page(() => import('../features/admin/TestEmailPage'));
const StatusPage = page(() => import('../features/status/StatusPage'));
const InvitePage = page(() => import('../features/lists/InvitePage'));
const TriggerPage = page(() => import('../features/triggers/TriggerPage'));
const SharePage = page(() => import('../features/quickadd/SharePage'));
const NotFoundPage = page(() => import('../components/NotFoundPage'));

interface RouteDef {
  path: string;
  Component: ComponentType | LazyExoticComponent<ComponentType>;
  protected?: boolean;
}

/** Product spec section 2. Each route exists at the root (ja) and under /en (en). */
export const ROUTES: readonly RouteDef[] = [
  { path: 'login', Component: LoginPage },
  { path: 'auth/callback', Component: AuthCallbackPage },
  { path: 'invite', Component: InvitePage },
  { path: 'reminders', Component: RemindersPage, protected: true },
  { path: 'settings', Component: SettingsPage, protected: true },
  { path: 'settings/delete-account', Component: DeleteAccountPage, protected: true },
  { path: 'faq', Component: FaqPage },
  { path: 'guide', Component: GuidePage },
  { path: 'privacy', Component: PrivacyPage },
  { path: 'terms', Component: TermsPage },
  { path: 'commercial-transaction-act', Component: CommercialPage },
  { path: 'admin', Component: AdminPage, protected: true },
  { path: 'admin/dashboard', Component: AdminPage, protected: true },
  { path: 'admin/users', Component: AdminUsersPage, protected: true },
  { path: 'test-email', Component: TestEmailPage, protected: true },
  { path: 'status', Component: StatusPage },
  { path: 't/:secret', Component: TriggerPage },
  { path: 'share', Component: SharePage, protected: true },
];

function element(def: RouteDef): ReactNode {
  const C = def.Component;
  return def.protected ? (
    <ProtectedRoute>
      <C />
    </ProtectedRoute>
  ) : (
    <C />
  );
}

function children(prefix: string) {
  return [
    <Route key={`${prefix}index`} index element={<HomePage />} />,
    ...ROUTES.map((r) => <Route key={prefix + r.path} path={r.path} element={element(r)} />),
    <Route key={`${prefix}*`} path="*" element={<NotFoundPage />} />,
  ];
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/en">{children('en:')}</Route>
        <Route path="/">{children('ja:')}</Route>
      </Route>
    </Routes>
  );
}
