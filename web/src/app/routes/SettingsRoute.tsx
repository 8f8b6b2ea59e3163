import { DevicesSection } from '../../features/notifications/DevicesSection';
import { SessionsSection } from '../../features/sessions/SessionsSection';
import SettingsPage from '../../features/settings/SettingsPage';

/** The settings page with the lists of devices (from notifications) and sessions (from sessions). */
export default function SettingsRoute() {
  return <SettingsPage devices={<DevicesSection />} sessions={<SessionsSection />} />;
}
