/** In-page words for a service address typed into a profile form, not the browser's own passing popup. */
export function urlProblem(label: string, value: string, required: boolean): string | null {
  const v = value.trim();
  if (v === '') return required ? `${label} is required.` : null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return `${label} must be a full web address, e.g. https://api.example.com.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${label} must start with https:// (or http://).`;
  return null;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A warning for an http:// address off this machine: the apiKey would cross the network unencrypted. */
export function cleartextWarning(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || LOCAL_HOSTS.has(url.hostname)) return null;
  return `http:// is not encrypted: the API key is sent in clear to ${url.host} on every request. Use https:// unless you trust every network in between.`;
}
