import { DevicesSection } from '../../features/notifications/DevicesSection';
import SettingsPage from '../../features/settings/SettingsPage';

/** The settings page with the list of devices (from notifications). */
export default function SettingsRoute() {
  return <SettingsPage devices={<DevicesSection />} />;
}
