import { InfoDocument } from './InfoPage';

export default function TermsPage() {
  return <InfoDocument doc="terms" />;
}
