import { GenerateForm } from './GenerateForm.tsx';
import { KeyDetail } from './KeyDetail.tsx';
import { Lookup } from './Lookup.tsx';
import { useKeydesk } from '../../store/index.ts';

/** Generate and find keys; a key picked in the results opens in a side panel, with the list still in view. */
export function Keys() {
  const open = useKeydesk((s) => s.selectedKey !== null);
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys</h1>
      <div className={open ? 'with-side-panel open' : 'with-side-panel'}>
        <div className="columns split-2-3">
          <GenerateForm />
          <Lookup />
        </div>
        <KeyDetail />
      </div>
    </section>
  );
}
