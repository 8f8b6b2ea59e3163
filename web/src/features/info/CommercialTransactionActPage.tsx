import { InfoDocument } from './InfoPage';

export default function CommercialTransactionActPage() {
  return <InfoDocument doc="commercial" />;
}
