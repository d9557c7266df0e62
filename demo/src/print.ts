const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);
export const bold = paint('1');
export const dim = paint('2');
export const green = paint('32');
export const red = paint('31');
export const cyan = paint('36');

let step = 0;
/** Prints a numbered step of the story. */
export function printStep(title: string): void {
  step += 1;
  process.stdout.write(`\n${bold(cyan(`${step}.`))} ${bold(title)}\n`);
}

export function printDetail(label: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2).replace(/\n/g, '\n     ');
  process.stdout.write(`   ${dim(`${label}:`)} ${text}\n`);
}
