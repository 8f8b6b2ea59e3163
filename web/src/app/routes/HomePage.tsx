import { lazy } from 'react';
import { PageFallback } from '../../components/Spinner';
import { SignedOutHome } from '../../features/home/SignedOutHome';
import { useAuth } from '../../lib/authStore';

const Dashboard = lazy(() => import('./DashboardRoute'));

/** `/`: the signed-in dashboard (reminders), else the signed-out home. */
export default function HomePage() {
  const auth = useAuth();
  if (auth.user) return <Dashboard />;
  if (auth.status === 'checking') return <PageFallback />;
  return <SignedOutHome />;
}
