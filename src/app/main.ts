import './style.css';
import { App } from './App';
import { missingCapability, detectGpu } from './capabilities';
import { installDebugHooks } from './debugHooks';
import { BrushTool } from './BrushTool';
import { Picker } from './Picker';
import { parseAppState } from './urlState';

/** Start-up: probe the GPU, explain what is missing or start the app. */
function boot(): void {
  const container = document.getElementById('app');
  if (!container) throw new Error('index.html has no #app element');
  const caps = detectGpu();
  const missing = missingCapability(caps);
  if (missing) {
    const box = document.createElement('div');
    box.className = 'sr-fatal';
    box.setAttribute('role', 'alert');
    const title = document.createElement('h1');
    title.textContent = 'This browser cannot run the renderer';
    const text = document.createElement('p');
    text.textContent = missing;
    box.append(title, text);
    container.appendChild(box);
    installDebugHooks({ app: null, caps, fatal: missing });
    return;
  }
  const { state, problems } = parseAppState(location.search);
  // Test hook, set by a browser test before the page loads: which asteroid's jobs fail, how many.
  const debug = (window as { __srDebug?: { failAsteroid?: number; failJobs?: number } }).__srDebug;
  const app = new App({ container, caps, state, debugFailAsteroid: debug?.failAsteroid, debugFailJobs: debug?.failJobs });
  app.notices.showUrlProblems(problems, state.ui);
  const picker = new Picker(app);
  const brushes = new BrushTool(app, picker);
  installDebugHooks({ app, caps, fatal: null, picker, brushes });
  app.start();
}

boot();
