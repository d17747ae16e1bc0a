/**
 * The admin page's question rendering: the server's own renderer (src/core/rich-text.ts,
 * Markdown + KaTeX + sanitize-html), so the editor preview shows exactly the HTML the server
 * sends candidates (issue 26).
 */
export { escapeHtml, renderRich } from '../../src/core/rich-text.js';
