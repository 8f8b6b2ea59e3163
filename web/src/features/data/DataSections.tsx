import { TokensSection } from './TokensSection';
import { TransferSection } from './TransferSection';

/** Settings → API tokens, then Export and import: a chunk of its own, loaded with the settings page. */
export default function DataSections() {
  return (
    <>
      <TokensSection />
      <TransferSection />
    </>
  );
}
