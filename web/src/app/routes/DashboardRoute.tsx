import { useLists } from '../../features/lists/useLists';
import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import { QuickAdd } from '../../features/quickadd/QuickAdd';
import Dashboard from '../../features/reminders/list/Dashboard';

/**
 * The dashboard with the notice that this device will not ring (from notifications), quick add,
 * and the lists (from lists) whose colours the upcoming reminders show.
 */
export default function DashboardRoute() {
  const lists = useLists();
  return <Dashboard deviceNotice={<DeviceSetupNotice />} quickAdd={<QuickAdd />} lists={lists.data} />;
}
