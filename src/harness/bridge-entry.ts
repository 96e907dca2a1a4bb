// The entry of the harness page's bridge script (bundled by bridge-script.ts): install on the page's globals.
import { installLoopbackBridge, type BrowserGlobals } from './loopback-bridge.ts';

installLoopbackBridge(globalThis as unknown as BrowserGlobals);
