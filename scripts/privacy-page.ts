/**
 * Writes `public/privacy.html`, the copy of PRIVACY.md the extension ships, so the options page's
 * link works offline: `npx tsx scripts/privacy-page.ts`. A test keeps the two equal. Takes the
 * little Markdown PRIVACY.md uses: headings, paragraphs, bullet lists, bold and code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c] as string);

const inline = (text: string) =>
  escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/`(.+?)`/g, '<code>$1</code>');

const STYLE = `:root { color-scheme: light dark; font: 16px/1.55 system-ui, sans-serif; }
body { max-width: 44rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 1.75rem; } li { margin: 0.35rem 0; }`;

export function privacyPage(markdown: string): string {
  const blocks = markdown.trim().split(/\n{2,}/);
  const body = blocks.map((block) => {
    const heading = /^(#{1,2}) (.+)$/.exec(block);
    if (heading) return `<h${heading[1]?.length}>${inline(heading[2] ?? '')}</h${heading[1]?.length}>`;
    if (block.startsWith('- ')) {
      const items = block.split(/\n- /).map((item) => item.replace(/^- /, '').replace(/\n\s*/g, ' '));
      return `<ul>\n${items.map((item) => `<li>${inline(item)}</li>`).join('\n')}\n</ul>`;
    }
    return `<p>${inline(block.replace(/\n/g, ' '))}</p>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Privacy · Inbox Companion</title>
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body.join('\n')}
</main>
</body>
</html>
`;
}

export const PRIVACY_SOURCE = new URL('../PRIVACY.md', import.meta.url);
export const PRIVACY_PAGE = new URL('../public/privacy.html', import.meta.url);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PRIVACY_PAGE, privacyPage(readFileSync(PRIVACY_SOURCE, 'utf8')));
}
