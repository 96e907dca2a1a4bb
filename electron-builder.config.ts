// What `npm run dist` builds with: electron-builder.yml, plus the update feed named at build time. With
// KEYDESK_UPDATE_URL set, every installer checks that feed (its app-update.yml); without it, none ever checks.
import type { Configuration } from 'electron-builder';

/** A generic feed (latest.yml and the installers in one folder); null for a build that never checks. */
export function updateFeed(url: string | undefined): Configuration['publish'] {
  if (url === undefined || url === '') return null;
  const feed = new URL(url);
  // Plain http only on this computer, to try a feed locally: a feed elsewhere must not be open to tampering.
  if (feed.protocol !== 'https:' && !(feed.protocol === 'http:' && feed.hostname === '127.0.0.1'))
    throw new Error(`KEYDESK_UPDATE_URL must be an https address, not ${feed.protocol}`);
  return { provider: 'generic', url: feed.toString() };
}

export default {
  extends: './electron-builder.yml',
  // Named even when null: electron-builder would otherwise publish to and check the GitHub repository.
  publish: updateFeed(process.env.KEYDESK_UPDATE_URL),
} satisfies Configuration;
