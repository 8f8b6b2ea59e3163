import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import { QuickAdd } from '../../features/quickadd/QuickAdd';
import RemindersPage from '../../features/reminders/RemindersPage';

/** The reminders page with quick add; its create/edit dialog shows the device notice (from notifications). */
export default function RemindersRoute() {
  return <RemindersPage deviceNotice={<DeviceSetupNotice compact />} quickAdd={<QuickAdd />} />;
}
