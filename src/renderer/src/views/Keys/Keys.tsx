import { GenerateForm } from './GenerateForm.tsx';
import { KeyDetail } from './KeyDetail.tsx';
import { Lookup } from './Lookup.tsx';

export function Keys() {
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys</h1>
      <div className="columns">
        <div>
          <GenerateForm />
          <Lookup />
        </div>
        <KeyDetail />
      </div>
    </section>
  );
}
