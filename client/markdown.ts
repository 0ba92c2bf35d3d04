/**
 * Safe Markdown for the chat's replies, in the browser. The model's text is
 * untrusted (a visitor can steer it), so: raw HTML is escaped (`html:
 * false`), images are off (no request leaves the page), and a link survives
 * only when it is http(s) or a same-site path such as
 * `/turismo/atractivos/<slug>`; anything else (`javascript:`, `data:`,
 * `//host`) is rendered as plain text.
 */
import MarkdownIt from "markdown-it";

/** Whether a link target may be rendered as a link. */
export function isSafeLink(url: string): boolean {
  const href = url.trim();
  // Backslashes and control characters: browsers "repair" them into hosts.
  // deno-lint-ignore no-control-regex
  if (/[\\\u0000-\u001f]/.test(href)) return false;
  if (/^https?:\/\/[^/]/i.test(href)) return true;
  // Same-site paths only: "/x" but not "//host" (another site).
  return /^\/(?!\/)/.test(href);
}

let instance: ReturnType<typeof createMarkdown> | undefined;

function createMarkdown() {
  const md = new MarkdownIt({
    html: false,
    linkify: true,
    breaks: true,
    typographer: false,
  });
  md.disable(["image"]);
  md.validateLink = isSafeLink;
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, idx, options) => {
    const token = tokens[idx];
    if (/^https?:/i.test(String(token.attrGet("href") ?? ""))) {
      token.attrSet("target", "_blank");
      token.attrSet("rel", "noopener noreferrer nofollow");
    }
    return renderToken(tokens, idx, options);
  };
  return md;
}

/** Renders a reply's Markdown to HTML that is safe to insert. */
export function renderMarkdown(source: string): string {
  instance ??= createMarkdown();
  return instance.render(source);
}
