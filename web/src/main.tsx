// First: it adjusts how Preact sets props before any element is created.
import './preactProps';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startFirstPlans } from './api/firstPlans';
import { ToastProvider } from './ui/Toasts';
import './styles/app.css';
import './styles/history.css';

/**
 * How long the first render waits for the plan list: when it comes within this time (the usual case: it
 * was preloaded while the code loaded), the first paint holds the rows; when it does not, the app shows
 * its loading state and the rows follow.
 */
const FIRST_RENDER_WAIT_MS = 400;

const root = document.getElementById('root');
if (root) {
  const plans = startFirstPlans();
  const render = () =>
    createRoot(root).render(
      <StrictMode>
        <ToastProvider>
          <App />
        </ToastProvider>
      </StrictMode>,
    );
  void Promise.race([plans, new Promise((resolve) => window.setTimeout(resolve, FIRST_RENDER_WAIT_MS))]).then(render);
}
