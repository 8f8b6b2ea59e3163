import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import RemindersPage from '../../features/reminders/RemindersPage';

/** The reminders page; its create/edit dialog shows the device notice (from notifications). */
export default function RemindersRoute() {
  return <RemindersPage deviceNotice={<DeviceSetupNotice compact />} />;
}
