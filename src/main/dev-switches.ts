// Development switches, read from the environment only when the app is not packaged: whoever sets a packaged app's
// environment must not get a remote page with the bridge, its origin trusted for IPC and the development CSP.
import { app } from 'electron';

/** The renderer's dev server, set by `npm run dev` (electron-vite); never in a packaged app. */
export function rendererDevServerUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.ELECTRON_RENDERER_URL;
  return app.isPackaged || !url ? undefined : url;
}
