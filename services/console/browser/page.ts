// Every page: when the last form was refused, focus moves to the problem summary, so a
// keyboard or screen reader user lands on what went wrong instead of the top of the page.
const problem = document.getElementById('problem');
if (problem) problem.focus();

// At phone width the menu starts folded (its summary, "Menu", opens it), so the page's own content comes first.
const menu = document.getElementById('menu-details') as HTMLDetailsElement | null;
if (menu && window.matchMedia('(max-width: 48rem)').matches) menu.open = false;

// Copy buttons (a CSR's PEM): shown only where script runs, since without it the text stays selectable
// in its read-only field. The outcome is said in the button's status region (role="status"), read out politely.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy ?? '') as HTMLTextAreaElement | null;
  const status = document.getElementById(button.dataset.copyStatus ?? '');
  if (!source) continue;
  button.hidden = false;
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(source.value).then(
      () => say('Copied.'),
      () => {
        // No clipboard permission: select the text, so the person copies it with the keyboard.
        source.focus();
        source.select();
        say('Selected: copy it with Ctrl+C.');
      },
    );
  });
}

// A module: its names stay its own.
export {};
