// Copying from a view with a toast: what was copied, or, when the clipboard refuses, what was being copied (as every
// other error toast names its operation: "Extend a key (K-1): …").

type Notify = (kind: 'success' | 'error', text: string) => void;

/** Puts `text` on the clipboard; `what` names the copy as asked for ("Copy key K-1"), `copied` is the success toast. */
export function copyToClipboard(text: string, what: string, copied: string, notify: Notify): Promise<void> {
  return navigator.clipboard.writeText(text).then(
    () => {
      notify('success', copied);
    },
    () => notify('error', `${what}: the clipboard refused; use an export instead.`),
  );
}
