// Every page: when the last form was refused, focus moves to the problem summary, so a
// keyboard or screen reader user lands on what went wrong instead of the top of the page.
const problem = document.getElementById('problem');
if (problem) problem.focus();

// At phone width the menu starts folded (its summary, "Menu", opens it), so the page's own content comes first.
const menu = document.getElementById('menu-details') as HTMLDetailsElement | null;
if (menu && window.matchMedia('(max-width: 48rem)').matches) menu.open = false;

// A module: its names stay its own.
export {};
