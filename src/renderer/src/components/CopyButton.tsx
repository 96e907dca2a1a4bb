import { useEffect, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';

type State = 'idle' | 'copied' | 'failed';
const CONFIRM_MS = 1_600;

/** Copies one value, named for what it copies; the icon becomes a tick and "Copied" (or the refusal) is announced. */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [state, setState] = useState<State>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const settle = (next: State) => {
    setState(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), CONFIRM_MS);
  };
  const announce = state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: the clipboard refused' : '';
  return (
    <span className={className ? `copy ${className}` : 'copy'}>
      <button
        type="button"
        className="icon-button"
        aria-label={label}
        title={state === 'copied' ? 'Copied' : label}
        data-state={state}
        onClick={(e) => {
          // A copy button inside a clickable row copies; it does not also pick the row.
          e.stopPropagation();
          navigator.clipboard.writeText(value).then(
            () => {
              settle('copied');
            },
            () => settle('failed'),
          );
        }}
      >
        <Icon name={state === 'copied' ? 'check' : state === 'failed' ? 'alert' : 'copy'} />
      </button>
      <span role="status" className="visually-hidden">
        {announce}
      </span>
    </span>
  );
}
