import { useState } from 'react';
import type { JobSummary } from '../../../shared/domain.ts';
import { resumeWords } from '../lib/jobs.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ServiceWait, useServiceWait } from './ServiceWait.tsx';

/** A stopped job's Resume, named by what it does; one that deletes, extends or resets asks first (a cancel is a change of mind). */
export function ResumeJobButton({ job, disabled, onResume }: { job: JobSummary; disabled?: boolean; onResume: () => void }) {
  const [asking, setAsking] = useState(false);
  const words = resumeWords(job);
  const { confirm } = words;
  const waits = useServiceWait() !== null;
  const note = `resume-waits-${job.id}`;
  return (
    <>
      <button
        type="button"
        disabled={disabled === true || waits}
        aria-describedby={waits ? note : undefined}
        onClick={() => {
          if (confirm) setAsking(true);
          else onResume();
        }}
      >
        {words.label}
      </button>
      <ServiceWait id={note} what="Resuming" />
      {confirm && (
        <ConfirmDialog
          open={asking}
          title={confirm.title}
          body={confirm.body}
          confirmLabel={confirm.confirmLabel}
          destructive
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onResume();
          }}
        />
      )}
    </>
  );
}
