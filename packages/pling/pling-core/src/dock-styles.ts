// The one stylesheet of every Pling AgentDock (vanilla, Vue 2, Vue 3, React): framework-free CSS for the DOM contract
// the docks share, injected once per document. Every rule sits under `[data-pling="dock"]`, so the dock neither
// depends on nor leaks into the host page's CSS.
//
// What the rules select:
// - the contract's `data-pling` attributes (`dock`, `messages`, `message` with `data-role` / `data-streaming`,
//   `text` with `data-format` (`markdown` for a reply, `text` for the person's words), `thinking`, `notice`,
//   `error` (with `error-summary`, `error-details`, `retry`), `not-configured`, `confirmation` with
//   `data-danger`, `approve`, `reject`, `handoff`, `operations`, `operation` with `data-status`, `trace`, `input`,
//   `send`, `launcher`, `close`, `announcer`, `settings`), and the root's `data-placement`:
//   `fixed` — a panel at the bottom right that stays inside the viewport (header and input always in view; when
//   the content outgrows it, the chat shrinks first, then the panel scrolls; on a phone it spans the width), or
//   with `data-open="false"` only the launcher button, which covers nothing else; `inline` — fills its host;
// - these shared class names, for the parts the contract does not name:
//   `pling-header` (the title row), `pling-title` (the title), `pling-subheading` (the operations and trace
//   headings), `pling-speaker` (a message's "You" / "Assistant" label), `pling-muted` (secondary text: empty
//   chat, no operations, a request's description), `pling-error-code` (the error's code), `pling-arguments` (a
//   confirmation's arguments), `pling-actions` (a row of buttons), `pling-list` (the operations list) and
//   `pling-form` (the form holding the input and its buttons; a direct child of the root), `pling-header-actions`
//   (the header's buttons) and `pling-visually-hidden` (read by screen readers, not shown).
//
// Layout, top to bottom: header (title; model settings, clear and close buttons), `settings` (a panel a dock's
// model-settings component fills; hidden while empty), not-configured, the chat, notice, error, confirmations,
// handoffs, recent operations, the form. The launcher replaces all of it while a fixed dock is closed.
//
// Colours are custom properties a host may set on the dock or any ancestor (`:root` included): `--pling-bg`,
// `--pling-fg`, `--pling-muted`, `--pling-border`, `--pling-accent`, `--pling-danger`, `--pling-user`,
// `--pling-assistant`. The stylesheet only reads them (through private `--_pling-*` copies with the defaults), so
// a host's value wins wherever it is set.

/** Where a dock sits: a floating panel at the bottom right of the viewport, or filling the element it is in. */
export type DockPlacement = 'fixed' | 'inline';

/** Marks the injected `<style>` element; one per document. */
export const DOCK_STYLE_ATTRIBUTE = 'data-pling-style';

const dock = '[data-pling="dock"]';

export const DOCK_CSS = `
${dock} {
  --_pling-bg: var(--pling-bg, #ffffff);
  --_pling-fg: var(--pling-fg, #1f2328);
  --_pling-muted: var(--pling-muted, #656d76);
  --_pling-border: var(--pling-border, #d0d7de);
  --_pling-accent: var(--pling-accent, #0969da);
  --_pling-danger: var(--pling-danger, #cf222e);
  --_pling-user: var(--pling-user, #ddf4ff);
  --_pling-assistant: var(--pling-assistant, #f6f8fa);
  box-sizing: border-box;
  display: flex;
  flex-direction: column;
  gap: 8px;
  overflow-y: auto;
  padding: 12px;
  border: 1px solid var(--_pling-border);
  border-radius: 10px;
  background: var(--_pling-bg);
  color: var(--_pling-fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif;
  text-align: start;
}
${dock} *, ${dock} *::before, ${dock} *::after { box-sizing: border-box; }
${dock}[data-placement="fixed"] {
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 2147483000;
  width: min(400px, calc(100vw - 32px));
  /* One height whatever the content, so the panel does not jump as messages and cards come and go. */
  height: min(720px, calc(100vh - 32px));
  height: min(720px, calc(100dvh - 32px));
  box-shadow: 0 8px 24px rgb(0 0 0 / 0.16);
}
@media (max-width: 480px) {
  ${dock}[data-placement="fixed"] {
    right: 8px;
    bottom: 8px;
    width: calc(100vw - 16px);
    height: calc(100vh - 16px);
    height: calc(100dvh - 16px);
  }
}
${dock}[data-placement="fixed"][data-open="false"] {
  width: auto;
  height: auto;
  padding: 0;
  overflow: visible;
  border: 0;
  background: transparent;
  box-shadow: none;
}
${dock}[data-open="false"] > :not([data-pling="launcher"]) { display: none !important; }
${dock}:not([data-open="false"]) > [data-pling="launcher"] { display: none; }
${dock} [data-pling="launcher"] {
  display: inline-flex;
  align-items: center;
  gap: 8px;
  min-height: 48px;
  padding: 10px 18px;
  border: 0;
  border-radius: 999px;
  background: var(--_pling-accent);
  color: #fff;
  font-weight: 600;
  box-shadow: 0 6px 18px rgb(0 0 0 / 0.22);
}
${dock} [data-pling="launcher"]::before {
  content: "";
  width: 16px;
  height: 13px;
  border: 2px solid currentColor;
  border-radius: 8px 8px 8px 2px;
}
${dock}[data-placement="inline"] { width: 100%; height: 100%; max-height: 100%; }
${dock} .pling-header-actions { display: flex; align-items: center; gap: 6px; }
${dock} [data-pling="settings"]:empty { display: none; }
${dock} [data-pling="model-settings"] > summary { cursor: pointer; color: var(--_pling-muted); }
${dock} [data-pling="model-settings"][open] { display: grid; gap: 6px; }
${dock} .pling-setting { display: grid; gap: 2px; }
${dock} .pling-setting select, ${dock} .pling-setting input {
  font: inherit;
  max-width: 100%;
  padding: 4px 6px;
  border: 1px solid var(--_pling-border);
  border-radius: 6px;
  background: var(--_pling-bg);
  color: var(--_pling-fg);
}
${dock} [data-pling="setting-error"] { color: var(--_pling-danger); }
${dock} [data-pling="model-settings"] [aria-invalid="true"] { border-color: var(--_pling-danger); }
${dock} .pling-visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
${dock} > * { flex: 0 0 auto; }
/* Sticky offsets count from the padding edge: -12px puts the header and form flush with the panel's border. */
${dock} p { margin: 0; }
${dock} .pling-header {
  position: sticky;
  top: -12px;
  z-index: 1;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin: -12px -12px 0;
  padding: 12px 12px 6px;
  background: var(--_pling-bg);
}
${dock} .pling-title { margin: 0; font-size: 15px; font-weight: 600; }
${dock} .pling-subheading { margin: 0 0 4px; font-size: 12px; font-weight: 600; color: var(--_pling-muted); }
${dock} .pling-muted { margin: 0; color: var(--_pling-muted); }
${dock} button, ${dock} [data-pling="input"] {
  border: 1px solid var(--_pling-border);
  border-radius: 6px;
  color: var(--_pling-fg);
  font: inherit;
}
${dock} button { padding: 4px 10px; background: var(--_pling-assistant); cursor: pointer; }
${dock} button:disabled { opacity: 0.5; cursor: default; }
${dock} [data-pling="operations"] .pling-muted { font-size: 12px; }
${dock} [data-pling="input"]:focus-visible { outline: 2px solid var(--_pling-accent); outline-offset: 0; }
${dock} button:focus-visible, ${dock} summary:focus-visible, ${dock} a:focus-visible {
  outline: 2px solid var(--_pling-accent);
  outline-offset: 2px;
}
${dock} [data-pling="send"], ${dock} [data-pling="approve"] {
  border-color: var(--_pling-accent);
  background: var(--_pling-accent);
  color: #fff;
}
${dock} [data-pling="messages"] {
  display: flex;
  flex-direction: column;
  gap: 6px;
  flex: 1 1 auto;
  min-height: 80px;
  overflow-y: auto;
}
${dock} [data-pling="message"] {
  max-width: 90%;
  padding: 6px 10px;
  border-radius: 8px;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}
${dock} [data-pling="message"][data-role="user"] { align-self: flex-end; background: var(--_pling-user); }
${dock} [data-pling="message"][data-role="assistant"] { align-self: flex-start; background: var(--_pling-assistant); }
${dock} [data-pling="text"][data-format="markdown"] { display: block; white-space: normal; }
${dock} [data-pling="text"] > :first-child { margin-top: 0; }
${dock} [data-pling="text"] > :last-child { margin-bottom: 0; }
${dock} [data-pling="text"] p, ${dock} [data-pling="text"] ul, ${dock} [data-pling="text"] ol,
${dock} [data-pling="text"] pre, ${dock} [data-pling="text"] table, ${dock} [data-pling="text"] blockquote {
  margin: 0 0 6px;
}
${dock} [data-pling="text"] ul, ${dock} [data-pling="text"] ol { padding-inline-start: 20px; }
${dock} [data-pling="text"] h1, ${dock} [data-pling="text"] h2, ${dock} [data-pling="text"] h3,
${dock} [data-pling="text"] h4, ${dock} [data-pling="text"] h5, ${dock} [data-pling="text"] h6 {
  margin: 8px 0 4px;
  font-size: 14px;
  font-weight: 600;
}
${dock} [data-pling="text"] a { color: var(--_pling-accent); text-decoration: underline; }
${dock} [data-pling="text"] code {
  padding: 0 3px;
  border-radius: 3px;
  background: color-mix(in srgb, var(--_pling-fg) 8%, transparent);
  font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace;
}
${dock} [data-pling="text"] pre {
  padding: 8px;
  overflow-x: auto;
  border-radius: 6px;
  background: #1f2328;
  color: #f6f8fa;
  white-space: pre;
}
${dock} [data-pling="text"] pre code { padding: 0; background: none; color: inherit; }
${dock} [data-pling="text"] table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; }
${dock} [data-pling="text"] th, ${dock} [data-pling="text"] td {
  padding: 3px 8px;
  border: 1px solid var(--_pling-border);
  text-align: start;
}
${dock} [data-pling="text"] th { background: color-mix(in srgb, var(--_pling-fg) 5%, transparent); font-weight: 600; }
${dock} [data-pling="text"] blockquote {
  padding-inline-start: 8px;
  border-inline-start: 3px solid var(--_pling-border);
  color: var(--_pling-muted);
}
${dock} [data-pling="thinking"] {
  align-self: flex-start;
  display: inline-flex;
  align-items: center;
  gap: 8px;
  padding: 6px 10px;
  border-radius: 8px;
  background: var(--_pling-assistant);
  color: var(--_pling-muted);
}
${dock} [data-pling="thinking"]::before {
  content: "";
  width: 24px;
  height: 8px;
  background: radial-gradient(circle, currentColor 2.5px, transparent 3px) 0 50% / 8px 8px repeat-x;
  animation: pling-thinking 1.2s ease-in-out infinite;
}
@keyframes pling-thinking { 0%, 100% { opacity: 0.35; } 50% { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { ${dock} [data-pling="thinking"]::before { animation: none; } }
${dock} .pling-speaker { display: block; font-size: 11px; color: var(--_pling-muted); }
${dock} [data-pling="notice"], ${dock} [data-pling="error"], ${dock} [data-pling="not-configured"] {
  margin: 0;
  padding: 6px 10px;
  border-radius: 6px;
  overflow-wrap: anywhere;
}
${dock} [data-pling="notice"] { background: var(--_pling-assistant); }
${dock} [data-pling="error"], ${dock} [data-pling="not-configured"] {
  border: 1px solid var(--_pling-danger);
  background: color-mix(in srgb, var(--_pling-danger) 6%, var(--_pling-bg));
  color: var(--_pling-danger);
}
${dock} [data-pling="not-configured"] strong { display: block; }
${dock} [data-pling="error"], ${dock} [data-pling="not-configured"] { display: flex; flex-direction: column; gap: 4px; }
${dock} [data-pling="error-details"] { font-size: 12px; color: var(--_pling-fg); }
${dock} [data-pling="error-details"] summary { cursor: pointer; color: var(--_pling-muted); }
${dock} [data-pling="error-details"] p { margin-top: 4px; overflow-wrap: anywhere; }
${dock} [data-pling="retry"] { align-self: flex-start; }
${dock} .pling-error-code { margin-inline-end: 6px; font: inherit; font-weight: 600; }
${dock} [data-pling="confirmation"], ${dock} [data-pling="handoff"] {
  display: flex;
  flex-direction: column;
  gap: 4px;
  padding: 8px 10px;
  border: 1px solid var(--_pling-border);
  border-radius: 8px;
}
${dock} [data-pling="confirmation"][data-danger="true"] { border-color: var(--_pling-danger); }
${dock} [data-pling="confirmation"][data-danger="true"] [data-pling="approve"] {
  border-color: var(--_pling-danger);
  background: var(--_pling-danger);
  color: #fff;
}
${dock} .pling-confirmation-title { margin: 0; font-weight: 600; }
${dock} [data-pling="confirmation"][data-danger="true"] .pling-confirmation-title { color: var(--_pling-danger); }
${dock} .pling-arguments {
  margin: 0 0 2px;
  padding: 6px;
  max-height: 120px;
  overflow: auto;
  border-radius: 4px;
  background: var(--_pling-assistant);
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}
${dock} .pling-actions { display: flex; flex-wrap: wrap; gap: 6px; justify-content: flex-end; }
${dock} .pling-list { margin: 0; padding: 0; list-style: none; max-height: 96px; overflow-y: auto; font-size: 12px; }
${dock} [data-pling="operation"]::before { content: "•"; display: inline-block; width: 1.25em; color: var(--_pling-muted); }
${dock} [data-pling="operation"][data-status="running"]::before { content: "…"; color: var(--_pling-accent); }
${dock} [data-pling="operation"][data-status="waiting"]::before { content: "?"; color: #9a6700; font-weight: 700; }
${dock} [data-pling="operation"][data-status="waiting"] { color: #9a6700; }
${dock} [data-pling="operation"][data-status="ok"]::before { content: "✓"; color: #1a7f37; }
${dock} [data-pling="operation"][data-status="failed"]::before,
${dock} [data-pling="operation"][data-status="blocked"]::before { content: "✕"; color: var(--_pling-danger); }
${dock} [data-pling="trace"] { margin-top: 6px; }
${dock} [data-pling="trace"] ol { margin: 0; padding-inline-start: 18px; font-size: 12px; }
${dock} [data-pling="trace"] summary { cursor: pointer; }
${dock} [data-pling="trace"] li[data-role] { white-space: pre-wrap; overflow-wrap: anywhere; }
${dock} [data-pling="trace"] code { font-weight: 600; }
${dock} .pling-form {
  position: sticky;
  bottom: -12px;
  display: flex;
  flex-direction: column;
  gap: 6px;
  margin: 0 -12px -12px;
  padding: 6px 12px 12px;
  background: var(--_pling-bg);
}
${dock} [data-pling="input"] {
  width: 100%;
  min-height: 44px;
  max-height: 160px;
  resize: vertical;
  padding: 6px 8px;
  background: var(--_pling-bg);
}
`;

/**
 * Adds the dock stylesheet to `document` as `<style data-pling-style>` unless one is there already (one per
 * document, however many docks and adapters). Without a document (server rendering) it does nothing.
 */
export function ensureDockStyles(document: Document | null | undefined): void {
  if (!document || document.querySelector(`style[${DOCK_STYLE_ATTRIBUTE}]`)) return;
  const style = document.createElement('style');
  style.setAttribute(DOCK_STYLE_ATTRIBUTE, '');
  style.textContent = DOCK_CSS;
  (document.head ?? document.documentElement).append(style);
}
