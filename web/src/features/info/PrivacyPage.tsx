import { InfoDocument } from './InfoPage';

export default function PrivacyPage() {
  return <InfoDocument doc="privacy" />;
}
