// One session's page, live: the console's event stream (which follows the verifier's
// stream of this session) sends the changing part of the page, rendered by the console,
// on every change of the session; a polite live region says the new state.

interface SessionEventData {
  state: string;
  summary: string;
  html: string;
}

const region = document.getElementById('session-live-region');
const announcer = document.getElementById('live-announcer');
const url = region?.dataset.streamUrl;
const rank = document.getElementById('session-live')?.dataset.rank ?? '1';

// Rank 3 is a terminal state: nothing follows it.
if (region && url && Number(rank) < 3) {
  const source = new EventSource(`${url}?rank=${rank}`);
  source.addEventListener('session', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as SessionEventData;
    region.innerHTML = data.html;
    if (announcer) announcer.textContent = data.summary;
    if (data.state === 'ResponseVerified' || data.state === 'Error') source.close();
  });
}

// A module: its names stay its own.
export {};
