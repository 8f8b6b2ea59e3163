import { lazy, Suspense } from 'react';
import { ChannelsSection } from '../../features/channels/ChannelsSection';
import { DevicesSection } from '../../features/notifications/DevicesSection';
import { SessionsSection } from '../../features/sessions/SessionsSection';
import SettingsPage from '../../features/settings/SettingsPage';

// API tokens, export and import (with their own texts, the `data` namespace): below the rest,
// they load after it and never hold the page back.
const DataSections = lazy(() => import('../../features/data/DataSections'));

/**
 * The settings page with the lists of devices (from notifications), channels (from channels) and
 * sessions (from sessions), and API tokens, export and import (from data).
 */
export default function SettingsRoute() {
  return (
    <SettingsPage
      devices={<DevicesSection />}
      channels={<ChannelsSection />}
      sessions={<SessionsSection />}
      tools={
        <Suspense fallback={null}>
          <DataSections />
        </Suspense>
      }
    />
  );
}
