import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { keepPlace } from './lib/place.ts';
import { applyTheme } from './lib/theme.ts';
import { useKeydesk } from './store/index.ts';
import './design/tokens.css';
import './design/components.css';
import './styles.css';
import './design/shell.css';

// A reload comes back to the view, and All keys' filter and sort, it left (per profile, for this window only).
keepPlace(useKeydesk, sessionStorage);

// The system's theme until main says which one Settings chose.
applyTheme('system');

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
