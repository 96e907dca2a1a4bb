// Integration's end-user reset: the public link a key's holder opens to free the key for another machine, a
// snippet for a "Reset my HWID" button, and what a cooldown means for it.
import { CopyButton } from '../../components/CopyButton.tsx';
import { NotOffered } from '../../components/NotOffered.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { offered, useCapability } from '../../lib/capabilities.ts';
import type { Profile } from '../../../../shared/domain.ts';
import { resetLink, resetSnippets, type ResetValues } from './reset-snippets.ts';

export function EndUserReset({ profile, service, testKey }: { profile: Profile; service: string; testKey: string | null }) {
  const values = { baseUrl: profile.baseUrl, service, key: testKey ?? 'YOUR-KEY' };
  const capability = useCapability('publicReset');
  return (
    <div className="card" role="region" aria-label="End-user HWID reset">
      <h2>End-user HWID reset</h2>
      <p className="muted">
        A key&rsquo;s holder can free it for another machine without you: one GET request with the service identifier and the key, and no
        API key. The next machine that validates the key takes it.
      </p>
      {offered(capability) ? (
        <Offered values={values} sandbox={profile.kind === 'sandbox'} />
      ) : (
        <NotOffered capability={capability} what="reset HWIDs for end users" />
      )}
    </div>
  );
}

/** The link, the cooldown and the snippets, where the check found the public reset. */
function Offered({ values, sandbox }: { values: ResetValues; sandbox: boolean }) {
  const link = resetLink(values);
  return (
    <>
      <dl className="facts">
        <dt>Reset link</dt>
        <dd className="with-copy">
          <code>
            <ServiceText text={link} />
          </code>
          <CopyButton value={link} label="Copy the reset link" />
        </dd>
        <dt>Cooldown</dt>
        <dd>
          The service may refuse a reset that comes too soon after the last one: it answers 429 with a <code>Retry-After</code> header
          (seconds to wait) and an <code>error</code> that says it in words. Show that wait to the customer rather than a failure.
          {sandbox &&
            ' The embedded sandbox has no cooldown; a standalone one sets one with --hwid-reset-cooldown MINUTES and --hwid-reset-limit N (resets per 30 days).'}
        </dd>
      </dl>
      {resetSnippets(values).map((s) => (
        <figure key={s.id} className="snippet">
          <figcaption className="with-copy">
            <strong>{s.label}</strong>
            <CopyButton value={s.code} label={`Copy the ${s.label} reset snippet`} />
          </figcaption>
          <pre aria-label={`${s.label} reset snippet`} tabIndex={0}>
            <code>{s.code}</code>
          </pre>
        </figure>
      ))}
    </>
  );
}
