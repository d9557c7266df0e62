// The session list, live: one event stream from the console (which follows the
// verifier's own streams of the listed open sessions and finds new ones); each event
// carries the changed session's row as rendered by the console, which replaces its copy
// or joins the top of the list. A polite live region says what changed.

interface SessionEventData {
  id: string;
  state: string;
  summary: string;
  html: string;
}

const rows = document.getElementById('session-rows') as HTMLTableSectionElement | null;
const announcer = document.getElementById('live-announcer');
const liveStatus = document.getElementById('live-status');
const url = rows?.dataset.streamUrl;

if (rows && url) {
  const shown = [...rows.querySelectorAll<HTMLTableRowElement>('tr[data-session-id]')]
    .map((row) => `${row.dataset.sessionId}:${row.dataset.state}`)
    .join(',');
  const source = new EventSource(`${url}&shown=${encodeURIComponent(shown)}`);
  source.addEventListener('session', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as SessionEventData;
    const template = document.createElement('template');
    template.innerHTML = data.html.trim();
    const row = template.content.firstElementChild;
    if (!row) return;
    const existing = document.getElementById(`session-${data.id}`);
    if (existing) existing.replaceWith(row);
    else rows.prepend(row);
    document.getElementById('no-sessions')?.remove();
    rows.dataset.updated = String(Date.now());
    if (announcer) announcer.textContent = data.summary;
  });
  source.addEventListener('error', () => {
    // A closed source does not come back (the session ended): say so instead of going quiet.
    if (source.readyState === EventSource.CLOSED && liveStatus)
      liveStatus.textContent = 'Live updates stopped: reload the page to see new changes.';
  });
}

// A module: its names stay its own.
export {};
