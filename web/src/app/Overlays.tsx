import { InstallPrompt } from '../features/install/InstallPrompt';
import { IosGuide } from '../features/install/IosGuide';
import { OfflineBanner } from '../features/offline/OfflineBanner';

export default function Overlays() {
  return (
    <>
      <OfflineBanner />
      <InstallPrompt />
      <IosGuide />
    </>
  );
}
