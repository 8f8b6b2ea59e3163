import { lazy } from 'react';
import { SignedOutHome } from '../../features/home/SignedOutHome';
import { useAuth } from '../../lib/authStore';

const Dashboard = lazy(() => import('./DashboardRoute'));

/**
 * `/`: the signed-in dashboard (reminders), else the signed-out home. Without a stored user the
 * person is signed out (sign-in stores it), so the home paints at once, during the session check;
 * a session the check finds anyway (storage cleared, cookie kept) turns it into the dashboard.
 */
export default function HomePage() {
  const auth = useAuth();
  if (auth.user) return <Dashboard />;
  return <SignedOutHome />;
}
