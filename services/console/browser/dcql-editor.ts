import { csrfToken } from './csrf.js';

// The template editor: as the person types, the console checks the draft (JSON, then
// DCQL with the library the verifier uses) and renders the problems at their paths and
// the preview of what the wallet will show. Both come back as HTML rendered by the
// console (escaped there), replacing the server-rendered copies. Without this script
// the page still works: the verifier checks the query when the form is saved.

const query = document.getElementById('query') as HTMLTextAreaElement | null;
const check = document.getElementById('dcql-check');
const preview = document.getElementById('dcql-preview');
const verifier = document.getElementById('preview-verifier') as HTMLSelectElement | null;
const url = check?.dataset.checkUrl;

interface DraftAnswer {
  problems: number;
  problemsHtml: string;
  previewHtml: string;
}

if (query && check && preview && url) {
  let timer: number | undefined;
  let latest = 0;
  let shown = '';
  const run = async () => {
    const sequence = ++latest;
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
      body: JSON.stringify({ query: query.value, ...(verifier?.value ? { verifierId: verifier.value } : {}) }),
    });
    // An answer to an older draft than the last one asked about is dropped.
    if (!response.ok || sequence !== latest) return;
    const answer = (await response.json()) as DraftAnswer;
    // Only a change is written: the check region is announced politely to screen readers.
    if (answer.problemsHtml !== shown) {
      check.innerHTML = answer.problemsHtml;
      shown = answer.problemsHtml;
    }
    preview.innerHTML = answer.previewHtml;
    query.setAttribute('aria-invalid', answer.problems > 0 ? 'true' : 'false');
  };
  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 400);
  };
  query.addEventListener('input', soon);
  verifier?.addEventListener('change', () => void run());
}
