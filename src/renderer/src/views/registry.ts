// The one list of views, read by the navigation, the palette and the tests. Each view's main heading is
// `<h1 id="{view}-title">`: "Go to …" in the palette focuses it.

export const VIEWS = [
  { view: 'overview', label: 'Overview', summary: 'Keys at a glance, the execution count and its history' },
  { view: 'keys', label: 'Keys', summary: 'Generate keys, find one, act on it' },
  { view: 'ledger', label: 'All keys', summary: 'Every key known for this service, with bulk actions' },
  { view: 'renewals', label: 'Renewals', summary: 'Keys expiring in the next 12 weeks: export, extend, message the customer' },
  { view: 'customers', label: 'Customers', summary: 'Who holds each key: the book, their keys, links from notes' },
  { view: 'import', label: 'Import', summary: 'Keys from a CSV, TSV, TXT or JSON file: looked up and recorded in All keys' },
  { view: 'jobs', label: 'Jobs', summary: 'Bulk and generate jobs, running and past: results, export, resume, cancel' },
  { view: 'keyless', label: 'Keyless', summary: 'HWIDs authorized without a key' },
  { view: 'identifier', label: 'Identifier check', summary: 'Whether a service identifier exists' },
  { view: 'validate', label: 'Validate & HWID', summary: "Validate a key or this machine's HWID" },
  { view: 'integration', label: 'Integration', summary: 'Point a protected app at this service: URLs, a test key, snippets' },
  { view: 'profiles', label: 'Profiles', summary: 'Services this app manages' },
  { view: 'activity', label: 'Activity', summary: 'Every operation this app has run' },
  { view: 'settings', label: 'Settings', summary: "Keydesk's theme, the local sandbox's port, sampling, bulk limit, logs" },
] as const satisfies readonly { view: string; label: string; summary: string }[];

export type ViewName = (typeof VIEWS)[number]['view'];
