import { GenerateForm } from './GenerateForm.tsx';
import { KeyDetail } from './KeyDetail.tsx';
import { Lookup } from './Lookup.tsx';

export function Keys() {
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys</h1>
      <div className="columns split-2-3">
        <GenerateForm />
        <div>
          <Lookup />
          <KeyDetail />
        </div>
      </div>
    </section>
  );
}
