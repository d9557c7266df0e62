// Every page: when the last form was refused, focus moves to the problem summary, so a
// keyboard or screen reader user lands on what went wrong instead of the top of the page.
const problem = document.getElementById('problem');
if (problem) problem.focus();

// A module: its names stay its own.
export {};
