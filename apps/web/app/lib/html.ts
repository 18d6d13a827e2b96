/** Text made safe to put into HTML, as element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replaceAll(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
