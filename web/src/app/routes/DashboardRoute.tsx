import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import Dashboard from '../../features/reminders/Dashboard';

/** The dashboard with the notice that this device will not ring (from notifications). */
export default function DashboardRoute() {
  return <Dashboard deviceNotice={<DeviceSetupNotice />} />;
}
