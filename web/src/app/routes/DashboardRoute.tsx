import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import { QuickAdd } from '../../features/quickadd/QuickAdd';
import Dashboard from '../../features/reminders/Dashboard';

/** The dashboard with the notice that this device will not ring (from notifications) and quick add. */
export default function DashboardRoute() {
  return <Dashboard deviceNotice={<DeviceSetupNotice />} quickAdd={<QuickAdd />} />;
}
