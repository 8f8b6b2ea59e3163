import { ChannelsSection } from '../../features/channels/ChannelsSection';
import { DevicesSection } from '../../features/notifications/DevicesSection';
import { SessionsSection } from '../../features/sessions/SessionsSection';
import SettingsPage from '../../features/settings/SettingsPage';

/** The settings page with the lists of devices (from notifications), channels (from channels) and sessions (from sessions). */
export default function SettingsRoute() {
  return <SettingsPage devices={<DevicesSection />} channels={<ChannelsSection />} sessions={<SessionsSection />} />;
}
