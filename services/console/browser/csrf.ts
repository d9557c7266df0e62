/** The page's anti-forgery token (the console renders it into every page); sent back as `x-csrf-token`. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}
