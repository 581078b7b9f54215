// Serving the page: the static files of the built @aalis/plugin-webui (its webuiPageDir(), which builds the page
// when the sources are newer), or of `webRoot` when configured; a plain "WebUI not built" page when there is none.
// The page is looked for on its first request, not at start: a host nobody opens in a browser (tests, scripts, several
// processes started at once) never runs a page build.
// The page holds no conversation content, so it needs no login; everything it shows comes through the API.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Locale, translate } from '@aalis/core';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context } from 'hono';

export interface PageServer {
  serve(c: Context): Response | Promise<Response>;
  /** The directory served, once known (undefined: not built). */
  directory(): Promise<string | undefined>;
}

const WEBUI_PACKAGE = '@aalis/plugin-webui';

/**
 * The page's own scripts only; inline styles for Vue's style bindings; images from itself, data: and blob:; audio
 * from itself and blob: (a reply's voice, made into an object URL by the Play button).
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** The built page of @aalis/plugin-webui, when that package is installed and can produce it. */
async function webuiPackageDir(
  warn: (text: string, fields: Record<string, unknown>) => void,
): Promise<string | undefined> {
  try {
    // Not a dependency: the server runs without the page (a variable keeps bundlers and tsc from resolving it).
    const name = WEBUI_PACKAGE;
    const module = (await import(name)) as { webuiPageDir?: () => Promise<string> };
    return module.webuiPageDir ? await module.webuiPageDir() : undefined;
  } catch (error) {
    warn('the WebUI page is not available', { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

export function createPageServer({
  webRoot,
  locale,
  warn,
}: {
  webRoot: string;
  locale: Locale;
  warn: (text: string, fields: Record<string, unknown>) => void;
}): PageServer {
  let resolved: Promise<string | undefined> | undefined;
  // Said once: a page that is not there is looked for again on each request (building it as the "not built" page
  // advises then works without a restart), and a log line per request would say nothing new.
  let warned = false;
  const warnOnce = (text: string, fields: Record<string, unknown>) => {
    if (!warned) warn(text, fields);
    warned = true;
  };
  const directory = () => {
    resolved ??= (async () => {
      const dir = webRoot !== '' ? webRoot : await webuiPackageDir(warnOnce);
      return dir !== undefined && existsSync(join(dir, 'index.html')) ? dir : undefined;
    })().then((found) => {
      if (found === undefined) resolved = undefined;
      return found;
    });
    return resolved;
  };
  let handlers: { files: ReturnType<typeof serveStatic>; index: ReturnType<typeof serveStatic> } | undefined;
  return {
    directory,
    async serve(c) {
      const dir = await directory();
      if (dir === undefined) {
        return c.html(
          messagePage(
            locale,
            translate({ key: 'sessionServer.page.notBuiltTitle' }, locale),
            translate({ key: 'sessionServer.page.notBuilt' }, locale),
          ),
          503,
        );
      }
      handlers ??= {
        files: serveStatic({ root: dir }),
        index: serveStatic({ root: dir, path: 'index.html' }),
      };
      c.header('content-security-policy', PAGE_CSP);
      const found = await handlers.files(c, async () => {});
      if (found) return found;
      // The page routes on the client: unknown paths without a file extension get index.html.
      if (!/\.[a-z0-9]+$/i.test(c.req.path)) {
        const index = await handlers.index(c, async () => {});
        if (index) return index;
      }
      return c.text('Not found', 404);
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A small page with a title and a message (login link errors, page not built). */
export function messagePage(locale: Locale, title: string, message: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Aalis</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color-scheme:light dark}code{font-size:.95em}</style></head><body><h1>${escapeHtml(title)}</h1><p>${withCode(escapeHtml(message))}</p></body></html>`;
}

/**
 * A refusal as a page: its first sentence is the heading, the rest of the message (how to fix it) below, and the code
 * in small print — never a bare code as the heading.
 */
export function errorPage(locale: Locale, code: string, message: string): string {
  const split = /^(.+?[。.!?！？])\s*(\S[\s\S]*)?$/u.exec(message.trim());
  const heading = split?.[1] ?? message;
  const rest = split?.[2] ?? '';
  const label = translate({ key: 'sessionServer.page.errorCode' }, locale);
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Aalis</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color-scheme:light dark}code{font-size:.95em}small{opacity:.7}</style></head><body><h1>${withCode(escapeHtml(heading))}</h1>${rest ? `<p>${withCode(escapeHtml(rest))}</p>` : ''}<p><small>${escapeHtml(label)} <code>${escapeHtml(code)}</code></small></p></body></html>`;
}

/** The messages quote commands in backticks (「运行 `aalis webui-link`」): shown as code, not as backticks. */
function withCode(escaped: string): string {
  return escaped.replace(/`([^`]+)`/gu, '<code>$1</code>');
}
